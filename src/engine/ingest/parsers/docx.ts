import { htmlToLines, sectionFinder } from './html.ts';
import { baseName } from './text.ts';
import type { ParseInput, ParsedDocument, Parser } from './types.ts';

type Mammoth = typeof import('mammoth');

let mammothModule: Promise<Mammoth> | undefined;
function loadMammoth(): Promise<Mammoth> {
  mammothModule ??= import('mammoth').then(
    // A CommonJS module: the API is the default export under Node's ESM loader.
    (m) => (m as unknown as { default?: Mammoth }).default ?? m,
    (error: unknown) => {
      mammothModule = undefined;
      throw error;
    },
  );
  return mammothModule;
}

/** Word's Title style is a heading of the document, not body text; Subtitle stays a paragraph. */
const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => p:fresh"];

export const docxParser: Parser = {
  types: ['docx'],
  async parse(input: ParseInput): Promise<ParsedDocument> {
    const mammoth = await loadMammoth();
    const buffer = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
    let result: Awaited<ReturnType<Mammoth['convertToHtml']>>;
    try {
      result = await mammoth.convertToHtml(
        { buffer },
        {
          styleMap: STYLE_MAP,
          externalFileAccess: false,
          // Images are not indexed: an empty src spares base64-encoding every picture.
          convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        },
      );
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      if (/end of central directory|zip/i.test(message)) throw new Error('not a DOCX file (not a zip archive)');
      throw error;
    }
    const { lines, headings } = await htmlToLines(result.value);
    // Mammoth's warnings are mostly unknown styles; only its errors are worth a note on the document.
    const warnings = [...new Set(result.messages.filter((m) => m.type === 'error').map((m) => m.message))];
    return {
      title: headings[0]?.text ?? baseName(input.relPath),
      lines,
      from: 0,
      hardBreaks: headings.map((h) => h.line),
      softBreaks: [],
      sectionAt: sectionFinder(headings),
      tags: { type: 'docx' },
      meta: { headings: headings.length },
      warnings,
    };
  },
};
