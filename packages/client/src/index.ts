export { type ClientOptions, GroundworkClient, type RawBody } from "./client.js";
export type * from "./types.js";
