export {
  type AgentSkillBinding,
  agentSkillBindings,
  parseSkillBinding,
  SKILL_BINDING_NAME_REGEX,
  type SkillBindingRef,
  splitQualifiedName,
} from "./skill-binding.js";
export {
  parseSkillFrontmatter,
  type SkillFrontmatter,
  skillMdBody,
  splitFrontmatter,
} from "./skill-frontmatter.js";
export {
  SKILL_DESCRIPTION_MAX_LENGTH,
  SKILL_FILE_MAX_BYTES,
  SKILL_MAX_FILES,
  SKILL_MD_MAX_BYTES,
  SKILL_NAME_MAX_LENGTH,
  SKILL_NAME_REGEX,
  SKILL_PATH_MAX_LENGTH,
  SKILL_TOTAL_MAX_BYTES,
  SKILL_ZIP_MAX_BYTES,
} from "./skill-limits.js";
export {
  SKILL_MD,
  type SkillPackage,
  type SkillPackageFile,
  sameSkillFiles,
  sha256Hex,
  skillFileContentType,
  skillFileText,
  skillPackageFromEntries,
  skillPackageFromFiles,
  skillPackageFromZip,
} from "./skill-package.js";
export { skillPathProblem } from "./skill-paths.js";
export {
  runTools,
  SKILL_READ_MAX_BYTES,
  SKILL_READ_TOOL_NAME,
  SKILL_TOOL_NAME,
  SKILLS_APPLY_DIFF_MAX_BYTES,
  SKILLS_APPLY_TOOL_NAME,
  skillIndex,
  skillTools,
  withSkillIndex,
} from "./skill-tools.js";
export { cutBytes, unifiedDiff } from "./unified-diff.js";
