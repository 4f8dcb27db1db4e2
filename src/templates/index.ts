// The templates area as other areas use it (the email capability). Nothing else here is public.
export { getTemplateForSend, type TemplateForSend } from './for-send.ts';
export { isSafeLinkUrl, renderTemplate, type TemplateParts, type TemplateVariables } from './variables.ts';
export { UNSUBSCRIBE_VARIABLE } from './marketing-footer.ts';
export { parseEditorDocument, type EditorBlock, type EditorDocument } from './editor-document.ts';
export { renderDocument } from './render.ts';
