export {
  checkFileSize,
  checkMemberQuota,
  MEMORY_FILE_MAX_BYTES,
  MEMORY_MEMBER_MAX_BYTES,
  MEMORY_MEMBER_MAX_FILES,
  type MemoryUsage,
} from "./memory-limits.js";
export {
  ancestorsOf,
  isUnder,
  MEMORY_MAX_DEPTH,
  MEMORY_MAX_PATH_LENGTH,
  MEMORY_MAX_SEGMENT_LENGTH,
  MEMORY_ROOT,
  memoryPath,
  memoryPathProblem,
  movedPath,
} from "./memory-paths.js";
export {
  checkMemoryText,
  insertLines,
  type LineRange,
  lineCount,
  lineRange,
  memorySha256,
  replaceOnce,
  utf8Size,
} from "./memory-text.js";
