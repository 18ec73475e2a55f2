"use strict";
// Helpers for both pages. Every text from a pack, a log or the server goes into the page through
// textContent (never as markup), so nothing it says can run or restyle the page.

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key === "on") for (const [name, f] of Object.entries(value)) node.addEventListener(name, f);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child instanceof Node ? child : String(child));
  return node;
}

function showError(message, hint) {
  const box = document.getElementById("error");
  box.textContent = message ? message + (hint ? " — " + hint : "") : "";
}
