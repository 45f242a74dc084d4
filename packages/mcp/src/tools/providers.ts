import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined, page } from "./common.js";

const providerType = z
  .enum(["HOSTED_A", "CLOUD_A", "HOSTED_B", "HOSTED_C", "HOSTED_D", "SELF_HOSTED"])
  .describe("provider kind");
const config = z
  .record(z.string(), z.unknown())
  .describe("kind-specific settings, e.g. {baseUrl} or {endpoint, apiVersion}; {} when none apply");
const providerId = z.string().describe("provider id (prv_…)");

export const providerTools = [
  defineTool({
    name: "list_providers",
    group: "Providers",
    title: "List providers",
    description:
      "Lists the organization's provider accounts, one page at a time. API keys are never included.",
    readOnly: true,
    input: { ...page },
    run: (client, args) => client.providers.list(defined(args)),
  }),
  defineTool({
    name: "list_all_providers",
    group: "Providers",
    title: "List all providers",
    description: "Lists every provider account of the organization (all pages).",
    readOnly: true,
    input: {},
    run: async (client) => {
      const all: unknown[] = [];
      for (let index = 0; ; index++) {
        const current = await client.providers.list({ page: index, size: 100 });
        all.push(...current.content);
        if (index + 1 >= current.totalPages) return { providers: all };
      }
    },
  }),
  defineTool({
    name: "get_provider",
    group: "Providers",
    title: "Get a provider",
    description: "Reads one provider account.",
    readOnly: true,
    input: { providerId },
    run: (client, args) => client.providers.get(args.providerId),
  }),
  defineTool({
    name: "create_provider",
    group: "Providers",
    title: "Connect a provider",
    description: "Connects a provider account (bring your own key). Needs the Team plan or higher.",
    readOnly: false,
    input: {
      name: z.string().max(255).describe("display name"),
      provider: providerType,
      apiKey: z
        .string()
        .optional()
        .describe("the provider's API key (omit for SELF_HOSTED); stored encrypted, never returned"),
      config,
    },
    run: (client, args) => client.providers.create(defined(args)),
  }),
  defineTool({
    name: "update_provider",
    group: "Providers",
    title: "Update a provider",
    description: "Changes a provider's name, API key or config; the provider kind cannot change.",
    readOnly: false,
    input: {
      providerId,
      name: z.string().max(255).optional().describe("new display name"),
      apiKey: z.string().optional().describe("new API key"),
      config: config.optional(),
    },
    run: (client, { providerId: id, ...body }) => client.providers.update(id, defined(body)),
  }),
  defineTool({
    name: "delete_provider",
    group: "Providers",
    title: "Delete a provider",
    description: "Removes a provider account (Admin).",
    readOnly: false,
    destructive: true,
    input: { providerId },
    run: async (client, args) => {
      await client.providers.delete(args.providerId);
      return { deleted: true, providerId: args.providerId };
    },
  }),
  defineTool({
    name: "test_provider",
    group: "Providers",
    title: "Test provider settings",
    description:
      "Checks a provider kind, key and config before saving; answers success, a message and the models found.",
    readOnly: true,
    input: { provider: providerType, apiKey: z.string().optional().describe("the key to test"), config },
    run: (client, args) => client.providers.test(defined(args)),
  }),
  defineTool({
    name: "list_provider_models",
    group: "Providers",
    title: "List provider models",
    description: "Lists the models available across all configured providers, as <prefix>/<model>.",
    readOnly: true,
    input: {},
    run: (client) => client.providers.models(),
  }),
];
