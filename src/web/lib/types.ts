// API shapes as the dashboard reads them: the client's types, which are inferred from the
// server's zod schemas (type-only imports: nothing of zod reaches the browser bundle).
// The enumerations come from the zod-free src/schemas/enums.ts.
import type * as T from '../../client/types.js';
import { LINK_TYPES, PARA_CATEGORIES } from '../../schemas/enums.js';

export type { ApiKey, Capture, Feed, HealthHistory, HealthSnapshot, Inbox, NodeStatus, ParaCategory, ParaItem, ParaTree, SearchMode, Tag } from '../../client/types.js';
/** A node as GET /nodes/{id} shows it: with its highlights (the reader draws them). */
export type KNode = T.Node & { annotations?: T.NodeHighlight[] };
export type NodeHighlight = T.NodeHighlight;
export type SearchPage = T.SearchResult;
export type Related = T.RelatedNode;
export type Suggestion = T.LinkSuggestion;
export type CaptureStatus = T.Capture['status'];
export type CapturePage = T.CaptureList;
export type Activity = T.ActivityEntry;
export type ProvenanceStage = T.ProvenanceStage;
export type Health = T.GraphHealth;

export { LINK_TYPES };
export const CATEGORIES: readonly T.ParaCategory[] = PARA_CATEGORIES;
