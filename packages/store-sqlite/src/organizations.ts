import { type Clock, defaultIdGenerator, type IdGenerator, type Plan, systemClock } from "@groundwork/core";
import { type Organization, type OrganizationRow, toOrganization } from "@groundwork/store-rows";
import type { Database, Statement } from "better-sqlite3";
import { statementCache } from "./statement-cache.js";

export type { Organization };

export class OrganizationStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Database,
    private readonly clock: Clock = systemClock,
    private readonly ids: IdGenerator = defaultIdGenerator,
    /** Told after a plan change (the verified-key cache holds the plan). */
    private readonly onPlanChange: (organizationId: string) => void = () => {},
  ) {
    this.sql = statementCache(db);
  }

  create(name: string, plan: Plan): Organization {
    const organization: Organization = { id: this.ids("org"), name, plan, createdAt: this.clock.now() };
    this.sql("INSERT INTO organizations (id, name, plan, created_at) VALUES (?, ?, ?, ?)").run(
      organization.id,
      name,
      plan,
      organization.createdAt,
    );
    return organization;
  }

  get(id: string): Organization | null {
    const row = this.sql("SELECT * FROM organizations WHERE id = ?").get(id) as OrganizationRow | undefined;
    return row === undefined ? null : toOrganization(row);
  }

  findByName(name: string): Organization | null {
    const row = this.sql("SELECT * FROM organizations WHERE name = ?").get(name) as
      | OrganizationRow
      | undefined;
    return row === undefined ? null : toOrganization(row);
  }

  /** The organization of that name, created with `plan` when absent (an existing plan is kept). */
  ensure(name: string, plan: Plan): { organization: Organization; created: boolean } {
    const existing = this.findByName(name);
    if (existing !== null) return { organization: existing, created: false };
    return { organization: this.create(name, plan), created: true };
  }

  setPlan(id: string, plan: Plan): void {
    this.sql("UPDATE organizations SET plan = ? WHERE id = ?").run(plan, id);
    this.onPlanChange(id);
  }

  count(): number {
    return (this.sql("SELECT COUNT(*) AS n FROM organizations").get() as { n: number }).n;
  }
}
