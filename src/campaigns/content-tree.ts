// Reading useSend's editor document (ProseMirror JSON, as its TipTap editor saves it) defensively:
// every node counted and its depth bounded as it is read, every value checked before it is used,
// every problem a 400 naming where it is (`content[3].content[0].marks[1].attrs.href`).
import { badRequest } from '../platform/errors.ts';
import { linkProblem, MAX_URL } from '../templates/editor-document.ts';

/** Bounds the rendering work (juice's cost grows with the elements) beyond the JSON's length. */
export const MAX_NODES = 10_000;
export const MAX_DEPTH = 20;

type Json = Record<string, unknown>;

/** A node or a mark: its JSON and where it stands. */
export interface Located {
  readonly json: Json;
  readonly path: string;
}

export interface TreeNode extends Located {
  readonly type: string;
  readonly depth: number;
  readonly walk: { nodes: number };
}

export interface Mark extends Located {
  readonly type: string;
}

export function refuse(message: string): never {
  throw badRequest(`content: ${message}`);
}

// The node types rendered, by where they may stand (content-blocks.ts and content-inline.ts).
export const BLOCK_TYPES = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'blockquote',
  'codeBlock',
  'horizontalRule',
  'image',
  'button',
  'spacer',
  'unsubscribeFooter',
] as const;
export const INLINE_TYPES = ['text', 'hardBreak', 'variable'] as const;
const RENDERED_TYPES = [...BLOCK_TYPES, 'listItem', ...INLINE_TYPES];

/** A node type that is not rendered, or not where it stands. */
export function refuseNode(node: TreeNode, expected: readonly string[]): never {
  const where = `node type ${quoted(node.type)} at ${node.path}`;
  if (!RENDERED_TYPES.includes(node.type)) refuse(`${where} is not rendered (${RENDERED_TYPES.join(', ')})`);
  return refuse(`${where} is not allowed here (${expected.join(', ')})`);
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A type as quoted in a message: a caller's string, so kept short. */
export const quoted = (type: string) => JSON.stringify(type.length > 40 ? `${type.slice(0, 40)}…` : type);

/** The document's root; `content[i]` are its blocks. */
export function readDocument(value: unknown): TreeNode {
  if (!isObject(value) || value.type !== 'doc' || !Array.isArray(value.content))
    refuse('must be an editor document: {"type": "doc", "content": [...]} (useSend\'s editor JSON)');
  return { json: value, path: 'content', type: 'doc', depth: 0, walk: { nodes: 0 } };
}

function readNode(value: unknown, path: string, parent: TreeNode): TreeNode {
  const depth = parent.depth + 1;
  if (depth > MAX_DEPTH) refuse(`nodes are nested more than ${MAX_DEPTH} levels deep (at ${path})`);
  if (++parent.walk.nodes > MAX_NODES) refuse(`more than ${MAX_NODES} nodes (the limit)`);
  if (!isObject(value) || typeof value.type !== 'string')
    refuse(`${path} must be a node: an object with a string "type"`);
  return { json: value, path, type: value.type, depth, walk: parent.walk };
}

/** The node's children, each counted against the limits. */
export function childrenOf(node: TreeNode): TreeNode[] {
  const content = node.json.content;
  if (content === undefined || content === null) return [];
  if (!Array.isArray(content)) refuse(`${node.path}.content must be an array of nodes`);
  const base = node.depth === 0 ? 'content' : `${node.path}.content`;
  return content.map((child, index) => readNode(child, `${base}[${index}]`, node));
}

/** A node's marks; each type at most once, as ProseMirror keeps them (so their number is bounded). */
export function marksOf(node: TreeNode): Mark[] {
  const marks = node.json.marks;
  if (marks === undefined || marks === null) return [];
  if (!Array.isArray(marks)) refuse(`${node.path}.marks must be an array of marks`);
  const seen = new Set<string>();
  return marks.map((mark, index) => {
    const path = `${node.path}.marks[${index}]`;
    if (!isObject(mark) || typeof mark.type !== 'string')
      refuse(`${path} must be a mark: an object with a string "type"`);
    if (seen.has(mark.type)) refuse(`${path}: mark type ${quoted(mark.type)} is given twice`);
    seen.add(mark.type);
    return { json: mark, path, type: mark.type };
  });
}

/** An attribute's value; null (TipTap's "not set") reads as absent. */
export function attrOf(at: Located, name: string): unknown {
  const attrs = at.json.attrs;
  if (attrs === undefined || attrs === null) return undefined;
  if (!isObject(attrs)) refuse(`${at.path}.attrs must be an object`);
  return attrs[name] ?? undefined;
}

const attrPath = (at: Located, name: string) => `${at.path}.attrs.${name}`;

export function stringAttr(at: Located, name: string): string | undefined {
  const value = attrOf(at, name);
  if (value !== undefined && typeof value !== 'string') refuse(`${attrPath(at, name)} must be a string`);
  return value;
}

export function choiceAttr<T extends string>(at: Located, name: string, choices: readonly T[]): T | undefined {
  const value = attrOf(at, name);
  if (value !== undefined && !choices.includes(value as T))
    refuse(`${attrPath(at, name)} must be one of ${choices.join(', ')}`);
  return value as T | undefined;
}

export function integerAttr(at: Located, name: string, min: number, max: number): number | undefined {
  const value = attrOf(at, name);
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min && (value as number) <= max))
    refuse(`${attrPath(at, name)} must be a whole number from ${min} to ${max}`);
  return value as number | undefined;
}

/** Pixels as useSend stores them: a number (a resize gives fractions) or a numeric string ("600"). */
export function pixelsAttr(at: Located, name: string, min: number, max: number): number | undefined {
  const value = attrOf(at, name);
  if (value === undefined) return undefined;
  const pixels = typeof value === 'string' && /^\d{1,6}(?:\.\d{1,6})?$/.test(value) ? Number(value) : value;
  if (typeof pixels !== 'number' || !Number.isFinite(pixels) || pixels < 0)
    refuse(`${attrPath(at, name)} must be a number of pixels`);
  return Math.min(Math.max(Math.round(pixels), min), max);
}

// useSend's colour picker gives hex with alpha; its defaults are rgb(). Nothing else reaches a style.
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const RGB_COLOUR = /^rgba?\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*(?:,\s*(?:0|1|0?\.\d{1,4})\s*)?\)$/i;

export function colourAttr(at: Located, name: string): string | undefined {
  const value = stringAttr(at, name);
  if (value !== undefined && !HEX_COLOUR.test(value) && !RGB_COLOUR.test(value))
    refuse(`${attrPath(at, name)} must be a colour like #1a2b3c or rgb(26, 43, 60)`);
  return value;
}

/** A URL that must be present, checked as templates check theirs (linkProblem, imageSourceProblem). */
export function urlAttr(at: Located, name: string, problem: (url: string) => string | null = linkProblem): string {
  const value = stringAttr(at, name);
  if (value === undefined || value === '') refuse(`${attrPath(at, name)} is required`);
  if (value.length > MAX_URL) refuse(`${attrPath(at, name)} must be at most ${MAX_URL} characters`);
  const message = problem(value);
  if (message !== null) refuse(`${attrPath(at, name)} ${message}`);
  return value;
}

/** An optional link (an image's externalLink); empty reads as absent, as useSend treats it. */
export function optionalLinkAttr(at: Located, name: string): string | undefined {
  const value = stringAttr(at, name);
  return value === undefined || value === '' ? undefined : urlAttr(at, name);
}
