/**
 * `JSON.stringify` that never throws on what tools produce: a BigInt is written as `"123n"`,
 * a reference back to an object on the current path as `"[Circular]"`.
 */
export function stringifySafely(value: unknown, space?: number): string {
  const path: unknown[] = [];
  return (
    JSON.stringify(
      value,
      function (this: unknown, _key: string, current: unknown) {
        if (typeof current === 'bigint') return `${current}n`;
        if (typeof current !== 'object' || current === null) return current;
        while (path.length > 0 && path[path.length - 1] !== this) path.pop();
        if (path.includes(current)) return '[Circular]';
        path.push(current);
        return current;
      },
      space,
    ) ?? 'undefined'
  );
}
