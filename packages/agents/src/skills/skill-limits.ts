/** The limits of a skill package (PLATFORM.md §4.1). */

/** `SKILL.md` at most 100 KiB. */
export const SKILL_MD_MAX_BYTES = 102_400;
/** At most 200 files, `SKILL.md` included. */
export const SKILL_MAX_FILES = 200;
/** Each file at most 1 MiB. */
export const SKILL_FILE_MAX_BYTES = 1_048_576;
/** All files together at most 10 MiB uncompressed. */
export const SKILL_TOTAL_MAX_BYTES = 10_485_760;
/** A zip at most 10 MiB compressed. */
export const SKILL_ZIP_MAX_BYTES = 10_485_760;
/** A file path at most 255 characters. */
export const SKILL_PATH_MAX_LENGTH = 255;
/** `name`: 1–64 characters of lowercase words joined by single hyphens. */
export const SKILL_NAME_MAX_LENGTH = 64;
export const SKILL_NAME_REGEX = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** `description`: 1–1024 characters. */
export const SKILL_DESCRIPTION_MAX_LENGTH = 1024;
