const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * Makes any string safe inside an XML 1.0 attribute value or text node: the five markup
 * characters become entities, tab/newline/carriage return become character references (so
 * attribute values keep them), and characters XML 1.0 cannot hold at all (other C0 controls,
 * U+FFFE/U+FFFF, lone surrogates) are written as a visible `\uXXXX`.
 */
export function escapeXml(text: string): string {
  let escaped = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    const code = char.charCodeAt(0);
    const entity = ENTITIES[char];
    if (entity !== undefined) {
      escaped += entity;
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      escaped += char + (text[++index] as string);
    } else if (
      code < 0x20 ||
      code === 0xfffe ||
      code === 0xffff ||
      (code >= 0xd800 && code <= 0xdfff)
    ) {
      escaped += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      escaped += char;
    }
  }
  return escaped;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
