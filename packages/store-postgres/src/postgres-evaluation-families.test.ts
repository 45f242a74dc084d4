/**
 * The evaluation families' contracts (prompts, datasets, evaluator templates, scores,
 * experiments, annotation queues) on the SQLite store — the reference: a contract that fails
 * there is wrong — and on PGlite and a real PostgreSQL server (test/postgres-backends.ts).
 */

import type { AnnotationQueueStore } from "../../store-sqlite/src/annotation-queues.js";
import type { DatasetStore } from "../../store-sqlite/src/datasets.js";
import type { EvaluatorTemplateStore } from "../../store-sqlite/src/evaluator-templates.js";
import type { PromptStore } from "../../store-sqlite/src/prompts.js";
import type { ScoreStore } from "../../store-sqlite/src/scores.js";
import { describeAnnotationQueueContract } from "../test/families/annotation-queues-contract.js";
import { describeDatasetContract } from "../test/families/datasets-contract.js";
import { describeEvaluatorTemplateContract } from "../test/families/evaluator-templates-contract.js";
import { onPostgres, onSqlite } from "../test/families/family-harness.js";
import { describePromptContract } from "../test/families/prompts-contract.js";
import { describeScoreContract } from "../test/families/scores-contract.js";
import { postgresBackends } from "../test/postgres-backends.js";
import { PostgresAnnotationQueueStore } from "./postgres-annotation-queues.js";
import { PostgresDatasetStore } from "./postgres-datasets.js";
import { PostgresEvaluatorTemplateStore } from "./postgres-evaluator-templates.js";
import { PostgresPromptStore } from "./postgres-prompts.js";
import { PostgresScoreStore } from "./postgres-scores.js";

const backends = postgresBackends("evaluation_families");

describeEvaluatorTemplateContract(
  "SQLite",
  onSqlite((store) => store.evaluatorTemplates),
);
for (const backend of backends) {
  describeEvaluatorTemplateContract(
    backend.label,
    onPostgres<EvaluatorTemplateStore>(
      backend,
      (client, clock, ids) => new PostgresEvaluatorTemplateStore(client, clock, ids),
    ),
  );
}

describeScoreContract(
  "SQLite",
  onSqlite((store) => store.scores),
);
for (const backend of backends) {
  describeScoreContract(
    backend.label,
    onPostgres<ScoreStore>(backend, (client, clock, ids) => new PostgresScoreStore(client, clock, ids)),
  );
}

describePromptContract(
  "SQLite",
  onSqlite((store) => store.prompts),
);
for (const backend of backends) {
  describePromptContract(
    backend.label,
    onPostgres<PromptStore>(backend, (client, clock, ids) => new PostgresPromptStore(client, clock, ids)),
  );
}

describeDatasetContract(
  "SQLite",
  onSqlite((store) => store.datasets),
);
for (const backend of backends) {
  describeDatasetContract(
    backend.label,
    onPostgres<DatasetStore>(backend, (client, clock, ids) => new PostgresDatasetStore(client, clock, ids)),
  );
}

describeAnnotationQueueContract(
  "SQLite",
  onSqlite((store) => store.annotationQueues),
);
for (const backend of backends) {
  describeAnnotationQueueContract(
    backend.label,
    onPostgres<AnnotationQueueStore>(
      backend,
      (client, clock, ids) => new PostgresAnnotationQueueStore(client, clock, ids),
    ),
  );
}
