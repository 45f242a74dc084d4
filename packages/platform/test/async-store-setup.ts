/**
 * Vitest setup of the platform, server and MCP projects: with `GROUNDWORK_TEST_STORE=async`
 * every Groundwork a test composes (directly, through `createApp`, or through the store
 * gateway and plan allowance) runs on the asynchronous stand-in of its SQLite store
 * (./async-store.ts), while the test's own setup keeps the SQLite store. Without the switch
 * nothing changes. The `async-store` project runs a representative set of files with it on.
 */
import { vi } from "vitest";
import { asyncStore, asyncStoreRequested } from "./async-store.js";

type Module = Record<string, unknown>;
type WithStore = { store: Parameters<typeof asyncStore>[0] };

if (asyncStoreRequested()) {
  const createGroundworkModule = new URL("../src/create-groundwork.ts", import.meta.url).pathname;
  const storeGatewayModule = new URL("../src/gateway/store-gateway.ts", import.meta.url).pathname;

  vi.doMock(createGroundworkModule, async (importOriginal) => {
    const actual = (await importOriginal()) as Module & {
      createGroundwork: (options: WithStore) => unknown;
    };
    return {
      ...actual,
      createGroundwork: (options: WithStore) =>
        actual.createGroundwork({ ...options, store: asyncStore(options.store) }),
    };
  });

  vi.doMock(storeGatewayModule, async (importOriginal) => {
    const actual = (await importOriginal()) as Module & {
      storePlanAllowance: (store: WithStore["store"], ...rest: unknown[]) => unknown;
      createStoreGateway: (store: WithStore["store"], ...rest: unknown[]) => unknown;
    };
    return {
      ...actual,
      storePlanAllowance: (store: WithStore["store"], ...rest: unknown[]) =>
        actual.storePlanAllowance(asyncStore(store), ...rest),
      createStoreGateway: (store: WithStore["store"], ...rest: unknown[]) =>
        actual.createStoreGateway(asyncStore(store), ...rest),
    };
  });
}
