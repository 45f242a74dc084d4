/**
 * Numbered migrations, one file each, applied in order at open. A migration is
 * never edited once released: add the next number instead.
 */
import { foundation } from "./001-foundation.js";
import { gateway } from "./002-gateway.js";
import { conversionTasks } from "./003-conversion-tasks.js";
import { schemasExtractions } from "./004-schemas-extractions.js";
import { knowledgeBases } from "./005-knowledge-bases.js";
import { agents } from "./006-agents.js";
import { memory } from "./007-memory.js";
import { conversations } from "./008-conversations.js";
import { storedResponses } from "./009-stored-responses.js";
import { prompts } from "./010-prompts.js";
import { datasets } from "./011-datasets.js";
import { evaluatorTemplates } from "./012-evaluator-templates.js";
import { scores } from "./013-scores.js";
import { skills } from "./014-skills.js";
import { connectors } from "./016-connectors.js";
import { platformTools } from "./017-platform-tools.js";
import { plugins } from "./018-plugins.js";
import { experiments } from "./019-experiments.js";
import { annotationQueues } from "./020-annotation-queues.js";
import { tracing } from "./021-tracing.js";
import { analytics } from "./022-analytics.js";
import { billing } from "./023-billing.js";
import { chunkOffsets } from "./024-chunk-offsets.js";
import { traceWritePath } from "./026-trace-write-path.js";
import { extractionSourcePlacements } from "./027-extraction-source-placements.js";
import { connectorInputOwners } from "./029-connector-input-owners.js";
import { kbVectorPacks } from "./030-kb-vector-packs.js";
import { kbKeywordPacks } from "./031-kb-keyword-packs.js";
import { kbVectorPackParts } from "./032-kb-vector-pack-parts.js";
import { usageLatencies } from "./033-usage-latencies.js";
import { tracesTimeAscending } from "./034-traces-time-ascending.js";
import type { Migration } from "./migration.js";

export type { Migration } from "./migration.js";

export const migrations: readonly Migration[] = [
  foundation,
  gateway,
  conversionTasks,
  schemasExtractions,
  knowledgeBases,
  agents,
  memory,
  conversations,
  storedResponses,
  prompts,
  datasets,
  evaluatorTemplates,
  scores,
  skills,
  connectors,
  platformTools,
  plugins,
  experiments,
  annotationQueues,
  tracing,
  analytics,
  billing,
  chunkOffsets,
  traceWritePath,
  extractionSourcePlacements,
  connectorInputOwners,
  kbVectorPacks,
  kbKeywordPacks,
  kbVectorPackParts,
  usageLatencies,
  tracesTimeAscending,
];
