// The API's enumerations and fixed limits, defined once. No zod here: the dashboard's
// browser bundle imports this file, and the schemas in this folder re-export it.

export const NODE_STATUSES = ['raw', 'validated', 'dismissed'] as const;
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export const LINK_TYPES = [
  'related', 'references', 'referenced_by', 'supports', 'supported_by', 'contradicts',
  'part_of', 'has_part', 'derived_from', 'source_of',
] as const;
export const PARA_CATEGORIES = ['projects', 'areas', 'resources'] as const;
export const PARA_STATUSES = ['active', 'archived', 'completed'] as const;
export const CAPTURE_CONTENT_TYPES = ['tweet', 'video', 'repo', 'article', 'pdf', 'audio', 'note', 'image'] as const;
export const CAPTURE_SOURCES = ['browser-extension', 'cli', 'api', 'mcp'] as const;
export const CAPTURE_STATUSES = ['pending', 'processing', 'completed', 'failed', 'archived', 'dismissed'] as const;
/** 25 MB, the upload limit of the contract. */
export const UPLOAD_MAX_BYTES = 25 * 1024 * 1024;
