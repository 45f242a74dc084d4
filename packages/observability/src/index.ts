/**
 * @groundwork/observability: tracing (OpenTelemetry GenAI spans), analytics and billing
 * as pure engines over ports; the platform package composes them with the store.
 */
export {};
