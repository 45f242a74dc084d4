export { type ApiKeyRecord, ApiKeyStore, hashApiKey } from "./api-keys.js";
export { type Database, openDatabase } from "./database.js";
export { type OpenStoreOptions, openStore, type Store } from "./open-store.js";
export { type Organization, OrganizationStore } from "./organizations.js";
export { type Migration, migrations, runMigrations } from "./run-migrations.js";
export { SqliteJobQueue } from "./sqlite-job-queue.js";
export { CredentialCipher } from "./credential-cipher.js";
export { type ProviderRecord, ProviderStore } from "./providers.js";
export { type UsageRecord, type UsageRecordInput, UsageRecordStore, type UsageSurface } from "./usage-records.js";
