/** Helpers of the conversion HTTP tests: the app over a platform, and loose response bodies. */
import {
  type ConversionService,
  createGroundwork,
  type GroundworkConfigInput,
  type PlatformStore,
} from "@groundwork/platform";
import { type App, createApp } from "../src/app.js";
import { SERVER_SETTING_NAMES } from "../src/config.js";

/** The app over a platform with this config; refusals name the server's variables, as under `groundwork serve`. */
export function conversionApp(
  store: PlatformStore,
  config: GroundworkConfigInput = {},
): { app: App; service: ConversionService } {
  const groundwork = createGroundwork({ store, config: { settingNames: SERVER_SETTING_NAMES, ...config } });
  return { app: createApp({ groundwork }), service: groundwork.conversion };
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
export type Body = any;

export const json = (response: Response): Promise<Body> => response.json() as Promise<Body>;

export const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
