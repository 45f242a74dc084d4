import type { Gateway } from "@groundwork/gateway";
import type { Hono } from "hono";
import type { AppEnv } from "../../http/env.js";
import { registerAudio } from "./audio.js";
import { registerChatCompletions } from "./chat-completions.js";
import { registerEmbeddings } from "./embeddings.js";
import { registerModels } from "./models.js";
import { registerProviders } from "./providers.js";
import { registerResponses } from "./responses.js";

export { passesRequestId } from "./call-context.js";

export function registerGatewayRoutes(app: Hono<AppEnv>, gateway: Gateway): void {
  registerChatCompletions(app, gateway);
  registerAudio(app, gateway);
  registerEmbeddings(app, gateway);
  registerModels(app, gateway);
  registerProviders(app);
  registerResponses(app, gateway);
}
