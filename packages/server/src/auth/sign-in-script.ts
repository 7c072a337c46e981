/**
 * The sign-in pages' one script (docs/areas/sign-in.md "End-user pages"): progressive enhancement, no framework, no
 * inline script (the CSP allows script files of our origin only). Every page works without it; with it:
 * - a password field with `data-reveal` gets a show/hide button (its labels in `data-show` / `data-hide`);
 * - a link with `data-wait` (the resend link) waits `data-seconds` before it can be used, saying how long
 *   (`data-wait`, with `{seconds}`);
 * - a button with `data-copy` (hidden without the script) copies its text to the clipboard and says `data-done`;
 * - a form with `data-passkey` (`get` or `create`; hidden without the script or without WebAuthn) asks the browser for
 *   a passkey with the options of `data-options` (or those answered by a POST to `data-options-url`), puts the answer's
 *   JSON in its `credential` field and sends itself; a refusal is said in its `[data-passkey-error]` (`data-cancelled`
 *   when the user cancelled or the request timed out, `data-failed` otherwise). With `data-autofill`, a `get` request
 *   starts at once with conditional mediation: the browser lists the user's passkeys in the autofill of a field with
 *   `autocomplete="… webauthn"`, and the button aborts it to ask in a dialog instead.
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
const P=window.PublicKeyCredential,b64=s=>Uint8Array.from(atob(s.replace(/-/g,"+").replace(/_/g,"/")),c=>c.charCodeAt(0)),
u64=b=>btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g,"-").replace(/\\//g,"_").replace(/=+$/,""),
ids=l=>(l||[]).map(c=>({...c,id:b64(c.id)}));
for(const f of P?d.querySelectorAll("form[data-passkey]"):[]){const create=f.dataset.passkey==="create",err=f.querySelector("[data-passkey-error]");let pending;
if(f.querySelector("button"))f.hidden=false;
const options=async()=>{if(f.dataset.options)return JSON.parse(f.dataset.options);const r=await fetch(f.dataset.optionsUrl,{method:"POST",credentials:"same-origin",headers:{Accept:"application/json"}});if(!r.ok)throw new Error("options");return r.json()};
const ask=async conditional=>{if(pending)pending.abort();const ctl=new AbortController;pending=conditional?ctl:undefined;
if(err)err.hidden=true;try{const o=await options();o.challenge=b64(o.challenge);let c;
if(create){o.user={...o.user,id:b64(o.user.id)};o.excludeCredentials=ids(o.excludeCredentials);c=await navigator.credentials.create({publicKey:o})}
else{o.allowCredentials=ids(o.allowCredentials);c=await navigator.credentials.get({publicKey:o,signal:ctl.signal,...(conditional?{mediation:"conditional"}:{})})}
if(!c)return;const r=c.response,json={id:c.id,rawId:u64(c.rawId),type:c.type,authenticatorAttachment:c.authenticatorAttachment||undefined,clientExtensionResults:c.getClientExtensionResults(),
response:create?{clientDataJSON:u64(r.clientDataJSON),attestationObject:u64(r.attestationObject),transports:r.getTransports?r.getTransports():undefined}
:{clientDataJSON:u64(r.clientDataJSON),authenticatorData:u64(r.authenticatorData),signature:u64(r.signature),userHandle:r.userHandle?u64(r.userHandle):undefined}};
f.elements.credential.value=JSON.stringify(json);f.submit()}catch(e){if(conditional&&ctl.signal.aborted)return;if(err){err.textContent=e&&(e.name==="NotAllowedError"||e.name==="AbortError")?f.dataset.cancelled:f.dataset.failed;err.hidden=false;f.hidden=false}}};
f.addEventListener("submit",e=>{e.preventDefault();ask(false)});
if("autofill"in f.dataset&&!create&&P.isConditionalMediationAvailable)P.isConditionalMediationAvailable().then(ok=>{if(ok)ask(true)},()=>{})}
for(const b of d.querySelectorAll("button[data-copy]")){b.hidden=false;const label=b.textContent;b.addEventListener("click",async()=>{try{await navigator.clipboard.writeText(b.dataset.copy||"");b.textContent=b.dataset.done||label;setTimeout(()=>{b.textContent=label},2000)}catch{}})}
})();
`;
