// The plan PostgreSQL makes for a statement with its parameters' values in view, as a flat list of
// nodes, for tests that hold a statement to its indexes.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** The planner's estimate of the rows the node returns. */
  'Plan Rows': number;
  Plans?: PlanNode[];
}

/** Every node of the plan of `compiled`. */
export async function planNodes(db: Kysely<Database>, compiled: CompiledQuery): Promise<PlanNode[]> {
  const result = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = result.rows[0]!['QUERY PLAN'];
  const [{ Plan }] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(Plan);
  return nodes;
}

/** The tables a plan reads with a sequential scan. */
export const seqScanned = (nodes: PlanNode[]) =>
  nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
