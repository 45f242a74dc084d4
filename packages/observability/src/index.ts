/**
 * @groundwork/observability: tracing (OpenTelemetry GenAI spans), analytics and billing
 * as pure engines over ports; the platform package composes them with the store.
 */

export { type BillingDecision, decide } from "./billing/billing-decision.js";
export {
  type BillingAllowance,
  BillingLedger,
  type BillingLedgerOptions,
  type BillingMeter,
  type CheckResult,
  createBillingAllowance,
  type LimitStatus,
  type TierView,
} from "./billing/billing-ledger.js";
export {
  type BillingWindow,
  minuteWindow,
  monthWindow,
  secondsToNextMinute,
} from "./billing/billing-period.js";
export {
  BILLING_RESOURCE_INFO,
  BILLING_RESOURCES,
  BILLING_TIERS,
  type BillingPeriod,
  type BillingReason,
  type BillingResource,
  type BillingResourceInfo,
  type BillingTier,
  type BillingUnit,
  includedUsageEur,
  isBillingResource,
  resolveTiers,
  type TierLimits,
  type TierOverrides,
} from "./billing/billing-tiers.js";
export { RequestWindow } from "./billing/request-window.js";
export { gatewaySpanAttributes, withGatewaySpanAttributes } from "./tracing/gateway-span-context.js";
export {
  CONTENT_ATTRIBUTE_LIMIT,
  GEN_AI,
  GROUNDWORK,
  type TraceKind,
} from "./tracing/gen-ai-attributes.js";
export { GLOBAL_TRACE_HOOKS, type TraceHooks } from "./tracing/trace-hooks.js";
