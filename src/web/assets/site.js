// Progressive enhancement only: every page works without this file.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy-target]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-target') || '');
  if (!source) return;
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(source.textContent || '');
  } catch {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    document.execCommand('copy');
  }
  button.textContent = button.getAttribute('data-copied-label') || label;
  button.setAttribute('data-copied', 'true');
  setTimeout(() => {
    button.textContent = label;
    button.removeAttribute('data-copied');
  }, 2000);
});

// Filters apply as soon as a select changes (the Filter button stays for readers without scripts).
document.querySelectorAll('form.search select').forEach((select) => {
  select.addEventListener('change', () => select.form?.submit());
});
