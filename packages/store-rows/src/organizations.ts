/** Organizations (tenants): the row and its record. */
import type { Plan } from "@groundwork/core";
import { int } from "./columns.js";

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: number;
}

export interface OrganizationRow {
  id: string;
  name: string;
  plan: Plan;
  created_at: number | string;
}

export function toOrganization(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, plan: row.plan, createdAt: int(row.created_at) };
}
