/** Organizations on PostgreSQL: the same methods and answers as store-sqlite's OrganizationStore. */
import { type Clock, defaultIdGenerator, type IdGenerator, type Plan, systemClock } from "@groundwork/core";
import { type Organization, type OrganizationRow, toOrganization } from "@groundwork/store-rows";
import { connectionOf } from "./postgres-family.js";
import type { SqlClient } from "./sql-client.js";

export class PostgresOrganizationStore {
  constructor(
    private readonly client: SqlClient,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
    /** Told after a plan change (the verified-key cache holds the plan). */
    private readonly onPlanChange: (organizationId: string) => void = () => {},
  ) {}

  async create(name: string, plan: Plan): Promise<Organization> {
    const organization: Organization = { id: this.ids("org"), name, plan, createdAt: this.clock.now() };
    await connectionOf(this.client).query(
      "INSERT INTO organizations (id, name, plan, created_at) VALUES ($1, $2, $3, $4)",
      [organization.id, name, plan, organization.createdAt],
    );
    return organization;
  }

  async get(id: string): Promise<Organization | null> {
    const { rows } = await connectionOf(this.client).query<OrganizationRow>(
      "SELECT * FROM organizations WHERE id = $1",
      [id],
    );
    return rows[0] === undefined ? null : toOrganization(rows[0]);
  }

  async findByName(name: string): Promise<Organization | null> {
    const { rows } = await connectionOf(this.client).query<OrganizationRow>(
      "SELECT * FROM organizations WHERE name = $1",
      [name],
    );
    return rows[0] === undefined ? null : toOrganization(rows[0]);
  }

  /**
   * The organization of that name, created with `plan` when absent (an existing plan is kept).
   * One statement, so two processes ensuring the same name at once both answer the one row.
   */
  async ensure(name: string, plan: Plan): Promise<{ organization: Organization; created: boolean }> {
    const existing = await this.findByName(name);
    if (existing !== null) return { organization: existing, created: false };
    const candidate: Organization = { id: this.ids("org"), name, plan, createdAt: this.clock.now() };
    const { rows } = await connectionOf(this.client).query<OrganizationRow>(
      `INSERT INTO organizations (id, name, plan, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
      [candidate.id, name, plan, candidate.createdAt],
    );
    if (rows[0] !== undefined) return { organization: toOrganization(rows[0]), created: true };
    const raced = await this.findByName(name);
    if (raced === null) throw new Error(`Organization "${name}" vanished while being ensured`);
    return { organization: raced, created: false };
  }

  async setPlan(id: string, plan: Plan): Promise<void> {
    await connectionOf(this.client).query("UPDATE organizations SET plan = $1 WHERE id = $2", [plan, id]);
    this.onPlanChange(id);
  }

  async count(): Promise<number> {
    const { rows } = await connectionOf(this.client).query<{ n: string | number }>(
      "SELECT COUNT(*) AS n FROM organizations",
    );
    return Number(rows[0]?.n ?? 0);
  }
}
