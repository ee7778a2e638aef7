// Progressive enhancement only: every page works without this file.

// Copy buttons come hidden, since they need this script.
document.querySelectorAll('button[data-copy-target]').forEach((button) => { button.hidden = false; });
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy-target]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy-target') || '');
  if (!source) return;
  // The status says how the copy went (emptied first, so that a second copy is announced again).
  const status = document.getElementById(button.getAttribute('data-copy-status') || '');
  if (status) status.textContent = '';
  const label = button.getAttribute('data-label') || button.textContent || '';
  button.setAttribute('data-label', label);
  let copied;
  try {
    await navigator.clipboard.writeText(source.textContent || '');
    copied = true;
  } catch {
    // Without the clipboard API (an address that is not secure) or its permission: the old way, which says whether it worked.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
  }
  if (status) {
    status.textContent = button.getAttribute(copied ? 'data-copied-label' : 'data-failed-label') || '';
    status.classList.toggle('visually-hidden', copied);
  }
  if (!copied) return;
  button.textContent = button.getAttribute('data-copied-label') || label;
  button.setAttribute('data-copied', 'true');
  setTimeout(() => {
    button.textContent = label;
    button.removeAttribute('data-copied');
  }, 2000);
});

// A preview that may be animated comes as its still (the first frame), whatever the reader's
// motion setting: its button plays the file as stored and, pressed again, shows the still again.
document.querySelectorAll('button[data-play]').forEach((button) => {
  const image = document.getElementById(button.getAttribute('data-play') || '');
  const moving = image?.getAttribute('data-animated-src');
  const still = image?.getAttribute('src');
  if (!image || !moving || !still) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    const play = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(play));
    image.setAttribute('src', play ? moving : still);
  });
});

// A filter chosen with a mouse or a finger (a press on the select itself) applies at once; the Filter
// button stays for readers without scripts. Any other change waits for Enter or the Filter button:
// one made with the keyboard, since Chromium fires `change` on every arrow key in a closed select,
// which would load a page per key; and one made with no press or key at all, as a screen reader's
// list of options or voice control sets a value, which must not reload the page under the reader.
let lastInput = 'keyboard';
document.addEventListener('keydown', () => { lastInput = 'keyboard'; }, true);
document.addEventListener('pointerdown', (event) => {
  lastInput = event.target instanceof Element && event.target.closest('form.search select') ? 'pointer' : 'elsewhere';
}, true);
document.querySelectorAll('form.search select').forEach((select) => {
  select.addEventListener('change', () => {
    if (lastInput === 'pointer') select.form?.requestSubmit();
  });
  select.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    select.form?.requestSubmit();
  });
});
// The note that says so comes hidden, since without the script no filter applies at once; the selects point to it.
document.querySelectorAll('form.search [data-filters-note]').forEach((note) => {
  note.hidden = false;
  note.closest('form')?.querySelectorAll('select').forEach((select) => select.setAttribute('aria-describedby', note.id));
});

// A search's address holds only the fields that say something (/en/?format=svg, not
// /en/?q=&format=svg&kind=&year=&source=), and nothing at all when none does.
document.querySelectorAll('form.search').forEach((form) => {
  form.addEventListener('submit', (event) => {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value !== '') query.append(name, value);
    event.preventDefault();
    const search = query.toString();
    window.location.assign(search ? `${form.action}?${search}` : form.action);
  });
});
