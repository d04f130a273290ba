// Rules: "when" an item matches, "then" tag it, file it in a PARA item, set its status, or
// skip it. They apply, in ascending order (then creation), to
//   - feed items, before the capture is made: a skip means the item is not captured;
//   - captures (feed items included), as each completes, after the feed's own tags and PARA item;
//   - notes a Markdown import creates, as each node is made;
// and on demand to every existing node (run), or not at all (dry run: the same plan, not done).
// A skip stops the rules after it. Every action is logged with what it changed, and undoable.
import { iso, type Clock } from '../../clock.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { RuleActionRow, RuleRow, RulesRepo } from '../../repos/rules.repo.js';
import type { CaptureCreateInput } from '../../schemas/captures.js';
import type { NodePatchInput } from '../../schemas/nodes.js';
import type { RuleActionDto, RuleThenInput, RuleWhenInput } from '../../schemas/rules.js';
import { matches, plan, type ItemFacts, type NodeState } from './rule-match.js';

/** What a rule's conditions read of an item (a feed item, a capture, an imported note). */
export type { ItemFacts };

type Source = 'capture' | 'feed_item' | 'import' | 'run';

export interface RuleDto {
  id: string;
  name: string;
  when: RuleWhenInput;
  then: RuleThenInput;
  order: number;
  created_at: string;
}

export interface RunResult {
  rule_id: string;
  dry_run: boolean;
  matched: number;
  changes: Array<{ node_id: string; title: string; actions: RuleActionDto[] }>;
}

export interface RulesDeps {
  tx: UnitOfWork;
  repo: RulesRepo;
  clock: Clock;
  nodes: {
    get(tenantId: string, id: string): Promise<NodeState & { title: string }>;
    update(tenantId: string, id: string, patch: NodePatchInput): Promise<unknown>;
    exists(tenantId: string, id: string): Promise<boolean>;
  };
  paraItemActive(tenantId: string, id: string): Promise<boolean>;
  /** Where a capture came from: its URL, content type and feed. */
  captureFacts(tenantId: string, captureId: string): Promise<Pick<ItemFacts, 'url' | 'content_type' | 'feed_id'> | undefined>;
  /** Undoing a skipped feed item captures it after all. */
  createCapture(tenantId: string, input: CaptureCreateInput): Promise<{ id: string }>;
}

const toDto = (r: RuleRow): RuleDto => ({ id: r.id, name: r.name, when: JSON.parse(r.conditions), then: JSON.parse(r.actions), order: Number(r.position), created_at: r.created_at });

export class RulesService {
  constructor(private readonly d: RulesDeps) {}

  async create(tenantId: string, input: { name: string; when: RuleWhenInput; then: RuleThenInput; order?: number }): Promise<RuleDto> {
    await this.checkPara(tenantId, input.then);
    const row: RuleRow = {
      id: newId('rul'), tenant_id: tenantId, name: input.name, conditions: JSON.stringify(input.when), actions: JSON.stringify(input.then),
      position: input.order ?? await this.d.repo.nextPosition(tenantId), created_at: iso(this.d.clock.now()),
    };
    await this.d.repo.insert(row);
    return toDto(row);
  }

  async list(tenantId: string): Promise<RuleDto[]> {
    return (await this.d.repo.list(tenantId)).map(toDto);
  }

  async get(tenantId: string, id: string): Promise<RuleDto> {
    return toDto(await this.row(tenantId, id));
  }

  async update(tenantId: string, id: string, p: { name?: string; when?: RuleWhenInput; then?: RuleThenInput; order?: number }): Promise<RuleDto> {
    return await this.d.tx.withTx(async () => {
      const cur = await this.row(tenantId, id);
      if (p.then) await this.checkPara(tenantId, p.then);
      await this.d.repo.update(tenantId, id, {
        name: p.name ?? cur.name, conditions: p.when ? JSON.stringify(p.when) : cur.conditions, actions: p.then ? JSON.stringify(p.then) : cur.actions, position: p.order ?? cur.position,
      });
      return this.get(tenantId, id);
    });
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!await this.d.repo.delete(tenantId, id)) throw new NotFoundError('Rule');
  }

  /** What the rule would change on existing nodes; `dryRun: false` does exactly that and logs it. */
  async run(tenantId: string, id: string, dryRun: boolean): Promise<RunResult> {
    return await this.d.tx.withTx(async () => {
      const rule = await this.get(tenantId, id);
      const result: RunResult = { rule_id: id, dry_run: dryRun, matched: 0, changes: [] };
      const seen = new Set<string>();
      for (const n of await this.d.repo.nodeFacts(tenantId)) {
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        const facts: ItemFacts = { title: n.title, url: n.url, content_type: n.content_type, feed_id: n.feed_id, tags: JSON.parse(n.tags) };
        if (!matches(rule.when, facts)) continue;
        result.matched++;
        const node = await this.d.nodes.get(tenantId, n.id);
        const active = await this.paraTargetActive(tenantId, rule.then);
        const actions = plan(rule.then, node, () => active);
        if (actions.length === 0) continue;
        result.changes.push({ node_id: n.id, title: n.title, actions });
        if (!dryRun) await this.apply(tenantId, rule.id, n.id, node, actions, 'run');
      }
      return result;
    });
  }

  async log(tenantId: string, id: string, limit = 200) {
    await this.row(tenantId, id);
    return (await this.d.repo.log(tenantId, id, limit)).map(toLogEntry);
  }

  /** Reverses one logged action, if what it changed is still as it left it. */
  async undo(tenantId: string, ruleId: string, actionId: string) {
    return await this.d.tx.withTx(async () => {
      const a = await this.d.repo.action(tenantId, actionId);
      if (!a || a.rule_id !== ruleId) throw new NotFoundError('Rule action');
      if (a.undone_at) throw new ConflictError('this action was already undone');
      const detail = JSON.parse(a.detail) as RuleActionDto & { capture?: CaptureCreateInput };
      if (a.kind === 'skip_item') {
        await this.d.createCapture(tenantId, detail.capture!);
      } else {
        if (!a.node_id || !await this.d.nodes.exists(tenantId, a.node_id)) throw new ConflictError('the node this action changed no longer exists');
        const node = await this.d.nodes.get(tenantId, a.node_id);
        if (a.kind === 'add_tags') await this.d.nodes.update(tenantId, a.node_id, { tags: node.tags.filter((t) => !detail.tags!.includes(t)) });
        else if (a.kind === 'file_para') await this.d.nodes.update(tenantId, a.node_id, { para_item_ids: node.para_item_ids.filter((p) => p !== detail.para_item_id) });
        else {
          if (node.status !== detail.to) throw new ConflictError(`the node's status changed since (it is ${node.status}, not ${detail.to})`);
          await this.d.nodes.update(tenantId, a.node_id, { status: detail.from as NodePatchInput['status'] });
        }
      }
      await this.d.repo.markUndone(tenantId, actionId, iso(this.d.clock.now()));
      return toLogEntry((await this.d.repo.action(tenantId, actionId))!);
    });
  }

  // ------------------------------------------------------------ where rules apply

  /** capture.completed (inside its transaction): the rules, in order, on the capture's node. */
  async onCaptureCompleted(tenantId: string, captureId: string, nodeId: string): Promise<void> {
    const origin = await this.d.captureFacts(tenantId, captureId);
    await this.applyAll(tenantId, nodeId, { url: origin?.url ?? null, content_type: origin?.content_type ?? null, feed_id: origin?.feed_id ?? null }, 'capture');
  }

  /** A note a Markdown import created. */
  async onImportedNode(tenantId: string, nodeId: string): Promise<void> {
    await this.applyAll(tenantId, nodeId, { url: null, content_type: null, feed_id: null }, 'import');
  }

  /** The first rule (in order) that skips this feed item, if any: the item is then not captured. */
  async feedItemSkipper(tenantId: string, facts: ItemFacts): Promise<string | null> {
    const tags = [...facts.tags];
    for (const r of await this.list(tenantId)) {
      if (!matches(r.when, { ...facts, tags })) continue;
      if (r.then.skip) return r.id;
      for (const t of plan({ add_tags: r.then.add_tags }, { tags, status: 'raw', para_item_ids: [] }, () => false)) tags.push(...(t.tags ?? []));
    }
    return null;
  }

  /** Logs a feed item skipped by a rule, with the capture that undoing it would make. */
  async logSkippedItem(tenantId: string, ruleId: string, capture: CaptureCreateInput): Promise<void> {
    await this.d.repo.logAction({
      id: newId('rla'), tenant_id: tenantId, rule_id: ruleId, node_id: null, kind: 'skip_item',
      detail: JSON.stringify({ type: 'skip', title: capture.title, url: capture.url ?? null, capture }), source: 'feed_item', created_at: iso(this.d.clock.now()),
    });
  }

  private async applyAll(tenantId: string, nodeId: string, origin: Pick<ItemFacts, 'url' | 'content_type' | 'feed_id'>, source: Source): Promise<void> {
    const rules = await this.list(tenantId);
    if (rules.length === 0) return;
    for (const rule of rules) {
      const node = await this.d.nodes.get(tenantId, nodeId);
      if (!matches(rule.when, { ...origin, title: node.title, tags: node.tags })) continue;
      const active = await this.paraTargetActive(tenantId, rule.then);
      const actions = plan(rule.then, node, () => active);
      try {
        if (actions.length) await this.d.tx.withTx(async () => await this.apply(tenantId, rule.id, nodeId, node, actions, source));
      } catch (e) {
        // A rule the node cannot take (say, past the tag limit) is passed over: it never
        // stops the capture or import it runs inside.
        if (!(e instanceof AppError)) throw e;
        continue;
      }
      if (rule.then.skip) break;
    }
  }

  private async apply(tenantId: string, ruleId: string, nodeId: string, node: NodeState, actions: RuleActionDto[], source: Source): Promise<void> {
    const patch: NodePatchInput = {};
    for (const a of actions) {
      if (a.type === 'add_tags') patch.tags = [...node.tags, ...a.tags!];
      else if (a.type === 'file_para') patch.para_item_ids = [...node.para_item_ids, a.para_item_id!];
      else patch.status = a.to as NodePatchInput['status'];
    }
    await this.d.nodes.update(tenantId, nodeId, patch);
    const at = iso(this.d.clock.now());
    for (const a of actions) {
      await this.d.repo.logAction({ id: newId('rla'), tenant_id: tenantId, rule_id: ruleId, node_id: nodeId, kind: a.type, detail: JSON.stringify(a), source, created_at: at });
    }
  }

  private async checkPara(tenantId: string, then: RuleThenInput): Promise<void> {
    if (then.para_item_id && !await this.d.paraItemActive(tenantId, then.para_item_id)) {
      throw new ValidationError(`then.para_item_id: unknown or inactive PARA item ${then.para_item_id}`, [{ path: 'then.para_item_id', message: 'unknown or inactive PARA item' }]);
    }
  }

  private async row(tenantId: string, id: string): Promise<RuleRow> {
    const r = await this.d.repo.get(tenantId, id);
    if (!r) throw new NotFoundError('Rule');
    return r;
  }

  /** Whether the PARA item the rule files into (if any) may still be filed into. */
  private async paraTargetActive(tenantId: string, then: { para_item_id?: string | null }): Promise<boolean> {
    return then.para_item_id ? await this.d.paraItemActive(tenantId, then.para_item_id) : false;
  }
}

function toLogEntry(a: RuleActionRow) {
  return { id: a.id, rule_id: a.rule_id, node_id: a.node_id, kind: a.kind, detail: JSON.parse(a.detail) as Record<string, unknown>, source: a.source as Source, created_at: a.created_at, undone_at: a.undone_at };
}
