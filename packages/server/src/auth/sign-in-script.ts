/**
 * The sign-in pages' one script (docs/areas/sign-in.md "End-user pages"): progressive enhancement, no framework, no
 * inline script (the CSP allows script files of our origin only). Every page works without it; with it:
 * - a password field with `data-reveal` gets a show/hide button (its labels in `data-show` / `data-hide`);
 * - a link with `data-wait` (the resend link) waits `data-seconds` before it can be used, saying how long
 *   (`data-wait`, with `{seconds}`);
 * - a button with `data-copy` (hidden without the script) copies its text to the clipboard and says `data-done`.
 * Served at SIGN_IN_SCRIPT_PATH with a long cache; the pages link it with `defer`.
 */
export const SIGN_IN_SCRIPT_PATH = '/interaction/assets/sign-in.js';

export const signInScript = `(()=>{"use strict";const d=document;
for(const input of d.querySelectorAll("input[data-reveal]")){const b=d.createElement("button");b.type="button";b.className="reveal";b.setAttribute("aria-controls",input.id);
const set=v=>{input.type=v?"text":"password";b.textContent=input.dataset[v?"hide":"show"]||""};
b.addEventListener("click",()=>{set(input.type==="password");input.focus()});set(false);input.insertAdjacentElement("afterend",b)}
for(const a of d.querySelectorAll("a[data-wait]")){const href=a.getAttribute("href"),label=a.textContent;let left=Number(a.dataset.seconds)||0;if(left<=0)continue;
a.removeAttribute("href");a.setAttribute("aria-disabled","true");const tick=()=>{if(left<=0){a.setAttribute("href",href);a.removeAttribute("aria-disabled");a.textContent=label;return}
a.textContent=(a.dataset.wait||"").replace("{seconds}",String(left));left-=1;setTimeout(tick,1000)};tick()}
for(const b of d.querySelectorAll("button[data-copy]")){b.hidden=false;const label=b.textContent;b.addEventListener("click",async()=>{try{await navigator.clipboard.writeText(b.dataset.copy||"");b.textContent=b.dataset.done||label;setTimeout(()=>{b.textContent=label},2000)}catch{}})}
})();
`;
