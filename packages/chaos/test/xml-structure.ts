/** An element of a parsed XML document. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITY_VALUES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/**
 * A deliberately small, strict XML 1.0 reader for tests: one optional declaration, one root,
 * balanced tags, quoted attributes, known entities and numeric references only, and no
 * character XML 1.0 forbids. Throws on anything else; returns the element tree.
 */
export function parseXml(xml: string): XmlElement {
  let position = 0;
  const fail = (what: string): never => {
    throw new Error(`XML not well-formed at ${position}: ${what}`);
  };
  for (const char of xml) {
    const code = char.codePointAt(0) as number;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (!allowed) fail(`forbidden character U+${code.toString(16)}`);
  }
  const decode = (raw: string): string => {
    let out = '';
    for (let index = 0; index < raw.length; index++) {
      const char = raw[index] as string;
      if (char === '<') fail('raw < in text');
      if (char !== '&') {
        out += char;
        continue;
      }
      const end = raw.indexOf(';', index);
      if (end < 0) fail('unterminated entity');
      const name = raw.slice(index + 1, end);
      if (name.startsWith('#x')) out += String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      else if (name.startsWith('#'))
        out += String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      else out += ENTITY_VALUES[name] ?? fail(`unknown entity &${name};`);
      index = end;
    }
    return out;
  };
  const isNameChar = (char: string | undefined) =>
    char !== undefined &&
    (char === '_' ||
      char === '-' ||
      char === '.' ||
      char === ':' ||
      (char >= 'a' && char <= 'z') ||
      (char >= 'A' && char <= 'Z') ||
      (char >= '0' && char <= '9'));
  const readName = (): string => {
    const start = position;
    while (isNameChar(xml[position])) position++;
    if (position === start) fail('expected a name');
    return xml.slice(start, position);
  };
  const skipSpace = () => {
    while (
      xml[position] === ' ' ||
      xml[position] === '\n' ||
      xml[position] === '\r' ||
      xml[position] === '\t'
    )
      position++;
  };

  if (xml.startsWith('<?xml')) {
    position = xml.indexOf('?>') + 2;
    if (position < 2) fail('unterminated declaration');
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (position < xml.length) {
    const next = xml.indexOf('<', position);
    const text = xml.slice(position, next < 0 ? xml.length : next);
    if (stack.length === 0) {
      if (text.trim() !== '') fail('text outside the root');
    } else {
      (stack[stack.length - 1] as XmlElement).text += decode(text);
    }
    if (next < 0) break;
    position = next + 1;
    if (xml[position] === '/') {
      position++;
      const name = readName();
      skipSpace();
      if (xml[position] !== '>') fail('expected > after a closing tag');
      position++;
      const open = stack.pop();
      if (open?.name !== name) fail(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    if (stack.length === 0 && root !== undefined) fail('a second root element');
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: '' };
    const attributes = element.attributes as Record<string, string>;
    for (;;) {
      skipSpace();
      const char = xml[position];
      if (char === '>' || char === '/') break;
      const name = readName();
      if (name in attributes) fail(`duplicate attribute ${name}`);
      if (xml[position++] !== '=') fail('expected =');
      const quote = xml[position++];
      if (quote !== '"' && quote !== "'") fail('unquoted attribute');
      const end = xml.indexOf(quote as string, position);
      if (end < 0) fail('unterminated attribute');
      attributes[name] = decode(xml.slice(position, end));
      position = end + 1;
    }
    stack[stack.length - 1]?.children.push(element);
    root ??= element;
    if (xml[position] === '/') {
      if (xml[position + 1] !== '>') fail('expected />');
      position += 2;
    } else {
      position++;
      stack.push(element);
    }
  }
  if (stack.length > 0) fail(`<${(stack[stack.length - 1] as XmlElement).name}> never closed`);
  return root ?? fail('no root element');
}
