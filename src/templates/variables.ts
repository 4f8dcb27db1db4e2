// `{{variable}}` substitution for a template's subject, HTML and text at send time. Pure: no I/O,
// no clock. The email capability calls renderTemplate with the request's `variables` map.
//
// - `{{ name }}`: whitespace inside the braces is allowed; names are letters, digits, `_`, `.`, `-`.
// - A variable the caller did not supply renders as the empty string.
// - Substitution is one pass: a value that itself contains `{{x}}` is not expanded again.
// - HTML: values are HTML-escaped. In URL attributes (href, src, background) contract rule 4 applies
//   (send, rule 4: a link that is exactly one variable is filled only with an http(s), mailto or tel
//   address), extended to any URL that *begins* with a variable; see fillUrlAttribute.
// - Subject: line breaks in values become spaces, so a value cannot add a header.
// - Text: values as given.
import { escapeHtml } from '../platform/escape-html.ts';

export type TemplateVariables = Readonly<Record<string, string>>;

export interface TemplateParts {
  subject: string;
  html: string | null;
  text: string | null;
}

const NAME = '[A-Za-z0-9_][A-Za-z0-9_.-]*';
/** One variable, capturing its name. */
export const VARIABLE_PATTERN = new RegExp(`\\{\\{\\s*(${NAME})\\s*\\}\\}`, 'g');
const ANY_VARIABLE = new RegExp(VARIABLE_PATTERN.source);
const SINGLE_VARIABLE = new RegExp(`^\\s*\\{\\{\\s*(${NAME})\\s*\\}\\}\\s*$`);
const LEADING_VARIABLE = new RegExp(`^\\s*\\{\\{\\s*(${NAME})\\s*\\}\\}`);
/** A URL whose scheme is written out in the template, so no variable can choose it. */
const LITERAL_SAFE_PREFIX = /^\s*(?:https?:\/\/|mailto:|tel:)/i;
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Is the text exactly one `{{variable}}` (whitespace around allowed)? Returns its name. */
export function singleVariableName(text: string): string | null {
  return SINGLE_VARIABLE.exec(text)?.[1] ?? null;
}

/** The name of the variable a text begins with, if any. */
export function leadingVariableName(text: string): string | null {
  return LEADING_VARIABLE.exec(text)?.[1] ?? null;
}

/** Does the text use any `{{variable}}`? */
function hasVariable(text: string): boolean {
  return ANY_VARIABLE.test(text);
}

/** Contract rule 4: an http(s) URL with a host, or a mailto: or tel: address. */
export function isSafeLinkUrl(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '' || CONTROL_CHARACTERS.test(trimmed)) return false;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return false;
  }
  if (!SAFE_PROTOCOLS.has(url.protocol)) return false;
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.hostname !== '';
  return trimmed.length > url.protocol.length;
}

function substitute(text: string, variables: TemplateVariables, encode: (value: string) => string): string {
  return text.replace(VARIABLE_PATTERN, (_match, name: string) => encode(valueOf(variables, name)));
}

function valueOf(variables: TemplateVariables, name: string): string {
  return Object.hasOwn(variables, name) ? (variables[name] ?? '') : '';
}

/**
 * A URL attribute's value (as written in the HTML, entity-encoded) with its variables filled.
 * - No variable: unchanged.
 * - Begins with a variable (rule 4's "exactly one variable" and `{{baseUrl}}/path` alike): that
 *   variable's value must be an http(s), mailto or tel URL, or the whole attribute becomes `#`.
 * - Otherwise the scheme must be written out (`https://…{{id}}`, `mailto:{{email}}`), or `#`.
 */
function fillUrlAttribute(raw: string, variables: TemplateVariables): string {
  if (!hasVariable(raw)) return raw;
  const leading = leadingVariableName(raw);
  if (leading !== null) {
    const value = valueOf(variables, leading);
    if (!isSafeLinkUrl(value)) return '#';
    // The leading value is used trimmed: a browser would strip the blanks anyway.
    if (singleVariableName(raw) !== null) return escapeHtml(value.trim());
    const rest = raw.slice(LEADING_VARIABLE.exec(raw)![0].length);
    return escapeHtml(value.trim()) + substitute(rest, variables, escapeHtml);
  }
  return LITERAL_SAFE_PREFIX.test(raw) ? substitute(raw, variables, escapeHtml) : '#';
}

const URL_ATTRIBUTES = new Set(['href', 'src', 'background']);
// A start tag; quoted attribute values may hold `>`. A tag or value left open runs to the end of
// the text (as a browser reads it), which also keeps the match linear: it never fails once started.
const TAG = /<[A-Za-z][^>"']*(?:(?:"[^"]*(?:"|$)|'[^']*(?:'|$))[^>"']*)*(?:>|$)/g;
// Inside a tag: an attribute with a value, or a variable outside any value.
const ATTRIBUTE_OR_VARIABLE = new RegExp(
  `([^\\s"'<>/=]+)(\\s*=\\s*)(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))|\\{\\{\\s*${NAME}\\s*\\}\\}`,
  'g',
);

function fillTag(tag: string, variables: TemplateVariables): string {
  return tag.replace(
    ATTRIBUTE_OR_VARIABLE,
    (match, name: string | undefined, equals: string, double?: string, single?: string, bare?: string) => {
      // A variable where an attribute name would be could add an event handler: dropped.
      if (name === undefined) return '';
      const raw = double ?? single ?? bare ?? '';
      if (!hasVariable(raw)) return match;
      const filled = URL_ATTRIBUTES.has(name.toLowerCase())
        ? fillUrlAttribute(raw, variables)
        : substitute(raw, variables, escapeHtml);
      // Always re-quoted: an unquoted value holding a blank would otherwise start a new attribute.
      return `${name}${equals}"${single !== undefined ? filled.replaceAll('"', '&quot;') : filled}"`;
    },
  );
}

const TAG_OR_VARIABLE = new RegExp(`${TAG.source}|\\{\\{\\s*(${NAME})\\s*\\}\\}`, 'g');

/**
 * Fills the variables of an HTML body produced by Herald (sanitised on the way in, or rendered from
 * an editor document). Values are escaped for the place they land in; one pass over the text.
 */
function renderHtml(html: string, variables: TemplateVariables): string {
  return html.replace(TAG_OR_VARIABLE, (match, name: string | undefined) =>
    name === undefined ? fillTag(match, variables) : escapeHtml(valueOf(variables, name)),
  );
}

/** A subject with its variables filled; line breaks in values become spaces (no header injection). */
function renderSubject(subject: string, variables: TemplateVariables): string {
  return substitute(subject, variables, (value) => value.replace(/[\r\n]+/g, ' '));
}

function renderText(text: string, variables: TemplateVariables): string {
  return substitute(text, variables, (value) => value);
}

/** The subject, HTML and text of a template with the caller's variables filled. */
export function renderTemplate(parts: TemplateParts, variables: TemplateVariables): TemplateParts {
  return {
    subject: renderSubject(parts.subject, variables),
    html: parts.html === null ? null : renderHtml(parts.html, variables),
    text: parts.text === null ? null : renderText(parts.text, variables),
  };
}
