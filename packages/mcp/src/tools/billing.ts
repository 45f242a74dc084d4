/**
 * Billing (PLATFORM.md §15): the caller's tier, every tier, the limits with their counters,
 * whether a resource is available and whether an amount fits. Every role may call them.
 */
import { z } from "zod";
import { defineTool } from "../tool.js";
import { defined } from "./common.js";

const resource = z
  .enum(["usage_eur", "pages", "storage_bytes", "requests_per_minute", "seats", "byok"])
  .describe(
    "usage_eur (included monthly usage, EUR), pages (converted this month), storage_bytes, requests_per_minute, seats (active API keys) or byok (feature)",
  );

export const billingTools = [
  defineTool({
    name: "get_billing_tier",
    group: "Billing",
    title: "Get the billing tier",
    description:
      "The organization's plan with its limits (null = unlimited) and the current UTC month (periodEnd exclusive).",
    readOnly: true,
    input: {},
    run: (client) => client.billing.tier(),
  }),
  defineTool({
    name: "list_billing_tiers",
    group: "Billing",
    title: "List billing tiers",
    description: "Every tier (Free, Team, Business, Enterprise) with its limits, in plan order.",
    readOnly: true,
    input: {},
    run: async (client) => ({ items: await client.billing.tiers() }),
  }),
  defineTool({
    name: "get_billing_limits",
    group: "Billing",
    title: "Get billing limits and usage",
    description:
      "Each resource's limit, what is used, what remains and when it resets (null for storage, seats and byok).",
    readOnly: true,
    input: {},
    run: (client) => client.billing.limits(),
  }),
  defineTool({
    name: "billing_has_available",
    group: "Billing",
    title: "Is a resource available",
    description:
      "Whether something of a resource remains (or it is unlimited, or the feature is included) for the organization.",
    readOnly: true,
    input: { resource },
    run: (client, args) => client.billing.available(args.resource),
  }),
  defineTool({
    name: "billing_check",
    group: "Billing",
    title: "Check an amount against the plan",
    description:
      "Whether `amount` (default 1, ≥ 0) more of a resource fits: allowed, the refusal reason, what remains before the amount and when it resets.",
    readOnly: true,
    input: {
      resource,
      amount: z.number().min(0).optional().describe("how much more, in the resource's unit (default 1)"),
    },
    run: (client, args) => client.billing.check(defined(args)),
  }),
];
