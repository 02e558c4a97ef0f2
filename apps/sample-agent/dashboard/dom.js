// Building the dashboard's elements: a tag, its attributes (`class`, `on<event>` handlers,
// the rest as attributes) and its children (undefined ones left out).

export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}
