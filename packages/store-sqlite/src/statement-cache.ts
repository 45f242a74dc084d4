import type { Database, Statement } from "better-sqlite3";

/**
 * Prepares each SQL text once per connection. Preparing costs more than running
 * a simple statement, and the request path (key lookup, usage records) runs the
 * same few statements on every call.
 */
export function statementCache(db: Database): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}
