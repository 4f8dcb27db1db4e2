// The plan PostgreSQL makes for a statement with its parameters' values in view, as a flat list of
// nodes, for tests that hold a statement to its indexes. A partition (0027_monthly_partitions.sql)
// is named by its partitioned table and a partition's index by the partitioned index, so a test
// names the tables and indexes of the schema. A sequential scan of a small partition (under 1,000
// rows by its statistics: another month, or one the test's rows are not in) is left out: the planner
// reads a small table whole rather than through an index, rightly, and the tests ask that the rows
// they made (thousands, in one partition) are not read so.
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
  const parents = await partitionParents(db);
  return nodes.flatMap((node) => {
    const relation = node['Relation Name'] && parents.get(node['Relation Name']);
    if (relation && node['Node Type'] === 'Seq Scan' && relation.small) return [];
    const index = node['Index Name'] && parents.get(node['Index Name']);
    return [
      {
        ...node,
        ...(relation ? { 'Relation Name': relation.parent } : {}),
        ...(index ? { 'Index Name': index.parent } : {}),
      },
    ];
  });
}

/** Each partition and partition index by name: its parent's name, and whether it is small (above). */
async function partitionParents(db: Kysely<Database>): Promise<Map<string, { parent: string; small: boolean }>> {
  const result = await db.executeQuery<{ name: string; parent: string; small: boolean }>(
    CompiledQuery.raw(`
      SELECT c.relname AS name, p.relname AS parent, (c.reltuples >= 0 AND c.reltuples < 1000) OR (c.reltuples < 0 AND c.relpages = 0) AS small
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent`),
  );
  return new Map(result.rows.map((row) => [row.name, { parent: row.parent, small: row.small }]));
}

/** The tables a plan reads with a sequential scan. */
export const seqScanned = (nodes: PlanNode[]) =>
  nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
