// Shapes of the Rhizome API as the contract (interface.md + decisions.md) describes them.
// Fields the server may add later pass through untouched.
// The enumerations come from the server's own schemas, so client and server never drift.
import { CAPTURE_CONTENT_TYPES } from '../schemas/captures.js';
import { LINK_TYPES } from '../schemas/graph.js';
import { NODE_STATUSES, SEARCH_MODES } from '../schemas/nodes.js';
import { PARA_CATEGORIES } from '../schemas/para.js';
import type { z } from '@hono/zod-openapi';
import type * as A from '../schemas/auth.js';
import type * as C from '../schemas/captures.js';
import type * as G from '../schemas/graph.js';
import type * as GV from '../schemas/graph-view.js';
import type * as H from '../schemas/health.js';
import type * as I from '../schemas/imports.js';
import type * as N from '../schemas/nodes.js';
import type * as HL from '../schemas/highlights.js';
import type * as P from '../schemas/para.js';
import type * as TG from '../schemas/tags.js';
import type * as F from '../schemas/feeds.js';
import type * as AK from '../schemas/ask.js';

export { LINK_TYPES, NODE_STATUSES, PARA_CATEGORIES, SEARCH_MODES };
export const CONTENT_TYPES = CAPTURE_CONTENT_TYPES;

export type SearchMode = (typeof SEARCH_MODES)[number];
export type NodeStatus = (typeof NODE_STATUSES)[number];
export type ParaCategory = (typeof PARA_CATEGORIES)[number];
export type ContentType = (typeof CAPTURE_CONTENT_TYPES)[number];
export type CaptureSource = CaptureInput['source'];

// Response and request shapes are inferred from the server's zod schemas (type-only
// imports: nothing server-side is loaded at run time).
type Out<T extends z.ZodType> = z.output<T>;
type In<T extends z.ZodType> = z.input<T>;

export type Node = Out<typeof N.Node>;
export type NodeHighlight = Out<typeof HL.NodeHighlight>;
export type NodeInput = In<typeof N.NodeCreate>;
export type NodePatch = In<typeof N.NodePatch>;
export type NodeBatchResult = Out<typeof N.NodeBatchResult>;
export type SearchParams = Partial<Out<typeof N.NodeSearchQuery>>;
export type SearchResult = Out<typeof N.NodeSearchResult>;

export type Tag = Out<typeof TG.Tag>;

export type Feed = Out<typeof F.Feed>;
export type FeedInput = In<typeof F.FeedCreate>;
export type FeedPatch = In<typeof F.FeedPatch>;
export type OpmlImported = Out<typeof F.OpmlImported>;

export type Link = Out<typeof G.Link>;
export type RelatedNode = Out<typeof G.RelatedNode>;
export type LinkSuggestion = Out<typeof G.LinkSuggestion>;
export type ContextParams = Partial<In<typeof G.ContextRequest>>;
export type ContextNode = Out<typeof G.ContextNode>;
export type AskParams = In<typeof AK.AskRequest>;
export type AskResult = Out<typeof AK.AskResult>;
export type GraphHealth = Out<typeof G.GraphHealth>;
export type HealthHistory = Out<typeof GV.HealthHistory>;
export type HealthSnapshot = Out<typeof GV.HealthSnapshot>;
export type Inbox = Out<typeof GV.Inbox>;

export type ParaItem = Out<typeof P.ParaItem> & { node_count?: number };
export type ParaTree = Record<ParaCategory, ParaItem[]>;

export type CaptureInput = In<typeof C.CaptureCreate>;
export type Capture = Out<typeof C.Capture>;
export type CaptureList = Out<typeof C.CaptureList>;
export type ActivityEntry = Out<typeof C.CaptureEvent>;
export type ProvenanceStage = Out<typeof C.CaptureStage>;

export type ImportAccepted = Out<typeof I.ImportAccepted>;
export type ImportRun = Out<typeof I.ImportRun>;

export type ServerHealth = Out<typeof H.Health>;
export type ApiKey = Out<typeof A.ApiKeyRecord>;
export type ApiKeyCreated = Out<typeof A.ApiKeyCreated>;
export type TokenPair = Out<typeof A.TokenPair>;

export const TERMINAL_CAPTURE_STATUSES = new Set(['completed', 'failed', 'archived', 'dismissed']);
