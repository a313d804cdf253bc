// Fixture funnel sites on 127.0.0.1, each its own server (so its own site for persona reuse), with
// server-side accounts and sessions: the deposit addresses are shown only to a logged-in customer.
//   english-signup   landing with Sign up / Log in / Deposit; sign-up asks names, e-mail, password
//                    twice and a terms checkbox; deposit page with coin tabs (addresses appear on click)
//   login-wall       every page is a log-in form with a small "create account" link; sign-up sends
//                    back to log-in
//   zh-wizard        Chinese three-step sign-up wizard (e-mail, password twice, nickname and terms),
//                    one page, steps shown in turn; the deposit page is 充值 (/recharge)
//   spa-cookie-modal single-page app behind a blocking cookie banner; sign-up in a modal; the deposit
//                    view is a client route whose coin tabs fetch their address
//   qr-deposit       like english-signup, but the deposit address is shown only as a QR image
//   captcha          sign-up behind a captcha widget
//   email-code       sign-up, then a six-digit code mailed (nodemailer) to the persona's address
//   activation-link  sign-up, then an activation link mailed; log in only after opening it
//   odd-words        like login-wall, but the way to an account reads "Open your portfolio" (/p/new):
//                    no word the heuristics know, so only the LLM planner finds it
//   symbol-password  like english-signup, but a password without a symbol is turned down ("must contain
//                    a special character"), said only after the submit
//   dropdowns        like english-signup, plus a country select (ISO codes as values) and the birth date
//                    as day / month / year selects (month names shown, numbers as values)
// Mail goes to `smtp` (host:port) when given; `mails` lists what was sent.
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import nodemailer from 'nodemailer';
import { qrImage } from './qr-images';
import { makeAddresses } from './wallet-address-factory';

/** What the captcha site's image shows: the answer a human types (the agent never solves it). */
export const CAPTCHA_ANSWER = 'K7P2Q';

export type FunnelSiteKind = 'english-signup' | 'login-wall' | 'zh-wizard' | 'spa-cookie-modal' | 'qr-deposit' | 'captcha' | 'email-code' | 'activation-link' | 'symbol-password' | 'dropdowns' | 'odd-words';

export interface FunnelSite {
  origin: string;
  port: number;
  wallets: { BTC: string; ETH: string; USDT: string };
  /** The accounts created, with the fields the site received (the persona's values, to compare). */
  accounts: Array<Record<string, string>>;
  /** Sign-ups the site turned down, with its reason. */
  rejections: string[];
  /** Successful log-ins (form posts). */
  logins(): number;
  mails: Array<{ to: string; code?: string; link?: string }>;
  close(): Promise<void>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const rev = (s: string) => [...s].reverse().join('');

function page(title: string, body: string, lang = 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title><style>.small{font-size:11px}</style></head><body>${body}</body></html>`;
}

const COUNTRIES: ReadonlyArray<readonly [string, string]> = [
  ['AU', 'Australia'], ['BR', 'Brazil'], ['CA', 'Canada'], ['CN', 'China'], ['FR', 'France'], ['DE', 'Germany'], ['IE', 'Ireland'], ['NG', 'Nigeria'],
  ['TR', 'Türkiye'], ['AE', 'United Arab Emirates'], ['GB', 'United Kingdom'], ['US', 'United States'], ['VN', 'Vietnam'],
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function strongPassword(p: string): boolean {
  return p.length >= 12 && /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p);
}

async function readBody(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json')) return JSON.parse(text || '{}') as Record<string, string>;
  return Object.fromEntries(new URLSearchParams(text));
}

function coinTabs(w: FunnelSite['wallets'], lang: 'en' | 'zh'): string {
  const map = JSON.stringify(Object.fromEntries(Object.entries(w).map(([k, v]) => [k, rev(v)])));
  return `<h1>${lang === 'zh' ? '充值' : 'Deposit'}</h1><p>${lang === 'zh' ? '选择币种' : 'Choose a coin'}:</p>
<div class="tabs"><button class="coin" data-coin="BTC">BTC</button><button class="coin" data-coin="ETH">ETH</button><button class="coin" data-coin="USDT">USDT (TRC20)</button></div>
<div id="panel"><p>${lang === 'zh' ? '请选择' : 'Select a coin to see your address'}</p></div>
<script>
const m = ${map};
document.querySelectorAll('.coin').forEach((b) => b.addEventListener('click', () => {
  const p = document.createElement('div'); p.id = 'panel';
  const c = document.createElement('code'); c.textContent = [...m[b.dataset.coin]].reverse().join('');
  p.append('Send ' + b.dataset.coin + ' to: ', c);
  document.getElementById('panel').replaceWith(p);
}));
</script>`;
}

export async function startFunnelSite(kind: FunnelSiteKind, opts: { smtp?: { host: string; port: number }; seed?: number } = {}): Promise<FunnelSite> {
  const a = makeAddresses(opts.seed ?? 1100 + randomInt(1000));
  const wallets = { BTC: a.btcSegwit, ETH: a.evm, USDT: a.tron };
  const qr = kind === 'qr-deposit' ? await qrImage([wallets.USDT]) : null;
  const accounts: Array<Record<string, string>> = [];
  const users = new Map<string, { password: string; active: boolean; code?: string }>();
  const sessions = new Map<string, string>();
  const pendingCode = new Map<string, string>(); // sid -> email awaiting its code
  const mails: FunnelSite['mails'] = [];
  const rejections: string[] = [];
  let logins = 0;
  let origin = '';
  const mailer = opts.smtp ? nodemailer.createTransport({ host: opts.smtp.host, port: opts.smtp.port, secure: false, ignoreTLS: true }) : null;
  const sendMail = async (to: string, subject: string, text: string, entry: FunnelSite['mails'][number]) => {
    mails.push(entry);
    if (mailer) await mailer.sendMail({ from: 'no-reply@fixture.invalid', to, subject, text });
  };

  const sidOf = (req: http.IncomingMessage) => /(?:^|;\s*)sid=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
  const userOf = (req: http.IncomingMessage) => {
    const sid = sidOf(req);
    return sid ? sessions.get(sid) : undefined;
  };
  const login = (res: http.ServerResponse, email: string) => {
    const sid = randomBytes(12).toString('hex');
    sessions.set(sid, email);
    res.setHeader('Set-Cookie', `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
    return sid;
  };
  const send = (res: http.ServerResponse, status: number, body: string | Buffer, type = 'text/html; charset=utf-8') => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  };
  const redirect = (res: http.ServerResponse, to: string) => {
    res.writeHead(302, { Location: to });
    res.end();
  };

  // The navigation as a visitor sees it; a logged-in customer's pages (accountNav) offer log-out instead.
  const nav = kind === 'zh-wizard'
    ? '<nav><a href="/">首页</a> <a href="/register">注册</a> <a href="/login">登录</a> <a href="/recharge">充值</a></nav>'
    : '<nav><a href="/">Home</a> <a href="/register">Sign up</a> <a href="/login">Log in</a> <a href="/deposit">Deposit</a></nav>';
  const accountNav = kind === 'zh-wizard'
    ? '<nav><a href="/">首页</a> <a href="/user">用户中心</a> <a href="/recharge">充值</a> <a href="/logout">退出</a></nav>'
    : '<nav><a href="/">Home</a> <a href="/account">My account</a> <a href="/deposit">Deposit</a> <a href="/logout">Log out</a></nav>';

  // A log-in wall (login-wall), or the same wall whose way to an account the heuristics cannot read
  // (odd-words: "Open your portfolio" to /p/new; the LLM planner finds it).
  const wall = kind === 'login-wall' || kind === 'odd-words';
  const loginForm = (msg = '') => page('Log in', `${wall ? '' : nav}<h1>Log in</h1>${msg ? `<p class="msg">${msg}</p>` : ''}
<form method="post" action="/login"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button type="submit">Log in</button></form>
${kind === 'login-wall' ? '<p class="small">No account yet? <a href="/signup">create account</a></p>' : kind === 'odd-words' ? '<p class="small">New here? <a href="/p/new">Open your portfolio</a></p>' : ''}`);

  const registerForm = (msg = '') => {
    if (wall) {
      return page('Sign up', `<h1>New account</h1>${msg}<form method="post" action="/signup"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><label>Repeat password <input type="password" name="password_repeat"></label><button type="submit">Sign up</button></form>`);
    }
    const selects = kind === 'dropdowns' ? `<label>Country <select name="country"><option value="">Select your country</option>${COUNTRIES.map(([code, name]) => `<option value="${code}">${name}</option>`).join('')}</select></label>
<fieldset><legend>Date of birth</legend><select name="dob_day" aria-label="Day"><option value="">Day</option>${Array.from({ length: 31 }, (_, i) => `<option value="${i + 1}">${i + 1}</option>`).join('')}</select>
<select name="dob_month" aria-label="Month"><option value="">Month</option>${MONTHS.map((m, i) => `<option value="${i + 1}">${m}</option>`).join('')}</select>
<select name="dob_year" aria-label="Year"><option value="">Year</option>${Array.from({ length: 90 }, (_, i) => `<option value="${2012 - i}">${2012 - i}</option>`).join('')}</select></fieldset>` : '';
    const captcha = kind === 'captcha' ? '<div class="g-recaptcha" data-sitekey="fixture"><iframe src="/recaptcha/anchor" title="reCAPTCHA" width="300" height="80"></iframe></div><label>Code in the image <img src="/captcha.png" alt="captcha" width="120" height="40"><input name="captcha_answer"></label>' : '';
    return page('Create your account', `${nav}<h1>Create your account</h1>${msg}<form method="post" action="/register">
<label>First name <input name="first_name"></label><label>Last name <input name="last_name"></label>
<label>Email <input type="email" name="email"></label>
<label>Password <input type="password" name="password"></label><label>Confirm password <input type="password" name="password_confirm"></label>
${selects}${captcha}<label><input type="checkbox" name="terms"> I agree to the Terms of Service</label>
<button type="submit">Create account</button></form>`);
  };

  const zhWizard = page('注册', `${nav}<h1>注册账户</h1>
<form id="s1" class="step"><label>邮箱 <input type="email" name="email"></label><button type="submit">下一步</button></form>
<form id="s2" class="step" style="display:none"><label>密码 <input type="password" name="password"></label><label>确认密码 <input type="password" name="password2"></label><button type="submit">下一步</button></form>
<form id="s3" class="step" style="display:none"><label>昵称 <input name="nickname"></label><label><input type="checkbox" name="agree"> 我已阅读并同意用户协议</label><button type="submit">完成注册</button></form>
<script>
const data = {};
const steps = ['s1', 's2', 's3'];
steps.forEach((id, i) => document.getElementById(id).addEventListener('submit', async (e) => {
  e.preventDefault();
  for (const el of e.target.elements) if (el.name) data[el.name] = el.type === 'checkbox' ? (el.checked ? 'on' : '') : el.value;
  if (i < 2) { e.target.style.display = 'none'; document.getElementById(steps[i + 1]).style.display = ''; return; }
  const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
  if (r.ok) location.href = '/user'; else document.body.insertAdjacentHTML('beforeend', '<p>错误</p>');
}));
</script>`, 'zh');

  const spa = page('CoinNest', `<div id="cookie-wall" style="position:fixed;inset:0;background:rgba(0,0,0,.7);z-index:1000;display:flex;align-items:flex-end">
<div style="background:#fff;width:100%;padding:20px">We use cookies to run this site. <button id="cookie-ok">Accept all</button></div></div>
<div id="app"></div>
<div id="modal" role="dialog" aria-modal="true" style="display:none;position:fixed;top:80px;left:30%;background:#eee;padding:20px;z-index:10">
<form id="signup"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label>
<label><input type="checkbox" name="terms"> I accept the terms</label><button type="submit">Create account</button></form></div>
<script>
let me = null;
const W = ${JSON.stringify(Object.fromEntries(Object.entries(wallets).map(([k]) => [k, k])))};
document.getElementById('cookie-ok').addEventListener('click', () => document.getElementById('cookie-wall').remove());
async function render() {
  const app = document.getElementById('app');
  if (location.hash === '#/deposit' && me) {
    app.innerHTML = '<h1>Deposit</h1><div class="tabs">' + Object.keys(W).map((c) => '<button class="coin" data-coin="' + c + '">' + (c === 'USDT' ? 'USDT (TRC20)' : c) + '</button>').join('') + '</div><div id="panel">Select a coin</div>';
    app.querySelectorAll('.coin').forEach((b) => b.addEventListener('click', async () => {
      const j = await (await fetch('/api/address?coin=' + b.dataset.coin)).json();
      const p = document.createElement('div'); p.id = 'panel'; p.textContent = 'Send ' + j.coin + ' to: ' + j.address;
      document.getElementById('panel').replaceWith(p);
    }));
    return;
  }
  if (me) {
    app.innerHTML = '<h1>Welcome</h1><p>Your balance: 0.00 USDT</p><span role="button" tabindex="0" id="dep">Deposit</span>';
    document.getElementById('dep').addEventListener('click', () => { location.hash = '#/deposit'; });
    return;
  }
  app.innerHTML = '<h1>CoinNest</h1><p>Grow your crypto 3% a day.</p><button id="open-signup">Register</button>';
  document.getElementById('open-signup').addEventListener('click', () => { document.getElementById('modal').style.display = 'block'; });
}
document.getElementById('signup').addEventListener('submit', async (e) => {
  e.preventDefault();
  const f = e.target;
  const r = await fetch('/api/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: f.email.value, password: f.password.value, terms: f.terms.checked ? 'on' : '' }) });
  if (!r.ok) return;
  document.getElementById('modal').style.display = 'none';
  me = (await (await fetch('/api/me')).json()).email;
  render();
});
window.addEventListener('hashchange', render);
fetch('/api/me').then((r) => r.json()).then((j) => { me = j.email; render(); });
</script>`);

  const register = async (req: http.IncomingMessage, res: http.ServerResponse, f: Record<string, string>, json: boolean) => {
    const fail = (why: string) => (rejections.push(why), json ? send(res, 400, JSON.stringify({ error: why }), 'application/json') : send(res, 400, registerForm(`<p class="error">${esc(why)}</p>`)));
    const confirm = f.password_confirm ?? f.password_repeat ?? f.password2 ?? (kind === 'spa-cookie-modal' ? f.password : undefined);
    const termsField = kind === 'zh-wizard' ? f.agree : f.terms;
    if (!f.email || !/@/.test(f.email)) return fail('an e-mail is required');
    if (!f.password || !strongPassword(f.password)) return fail('the password needs 12 characters with upper and lower case letters and digits');
    if (kind === 'symbol-password' && !/[^A-Za-z0-9]/.test(f.password)) return fail('Your password must contain at least one special character.');
    if (confirm !== f.password) return fail('the passwords differ');
    if (kind === 'dropdowns' && (!f.country || !f.dob_day || !f.dob_month || !f.dob_year)) return fail('please choose your country and date of birth');
    if (!wall && termsField !== 'on') return fail('please accept the terms');
    if (kind === 'english-signup' || kind === 'symbol-password' || kind === 'dropdowns' || kind === 'qr-deposit' || kind === 'email-code' || kind === 'activation-link') if (!f.first_name || !f.last_name) return fail('your name is required');
    if (kind === 'zh-wizard' && !f.nickname) return fail('昵称');
    if (kind === 'captcha' && f.captcha_answer !== CAPTCHA_ANSWER) return fail('wrong captcha');
    if (users.has(f.email)) return fail('this e-mail is registered already');
    const active = kind !== 'activation-link' && kind !== 'email-code';
    users.set(f.email, { password: f.password, active });
    accounts.push({ ...f });
    if (kind === 'email-code') {
      const code = String(randomInt(100000, 1000000));
      users.get(f.email)!.code = code;
      const sid = randomBytes(12).toString('hex');
      pendingCode.set(sid, f.email);
      res.setHeader('Set-Cookie', `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
      await sendMail(f.email, 'Your verification code', `Your verification code is ${code}. It expires in 30 minutes.`, { to: f.email, code });
      return redirect(res, '/verify');
    }
    if (kind === 'activation-link') {
      const token = randomBytes(16).toString('hex');
      users.get(f.email)!.code = token;
      const link = `${origin}/activate?token=${token}`;
      await sendMail(f.email, 'Activate your account', `Welcome! Open this link to activate your account: ${link}`, { to: f.email, link });
      return send(res, 200, page('Check your e-mail', `${nav}<h1>Almost there</h1><p>We have sent an activation link to your e-mail. Check your inbox.</p>`));
    }
    login(res, f.email);
    if (json) return send(res, 200, JSON.stringify({ ok: true }), 'application/json');
    if (wall) return redirect(res, '/login?registered=1');
    return redirect(res, '/account');
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const path = url.pathname;
      const user = userOf(req);
      if (req.method === 'POST') {
        const f = await readBody(req);
        if (path === '/register' || path === '/signup' || path === '/p/new') return register(req, res, f, false);
        if (path === '/api/register') return register(req, res, f, true);
        if (path === '/login') {
          const u = users.get(f.email ?? '');
          if (!u || u.password !== f.password || !u.active) return send(res, 401, loginForm('Wrong e-mail or password'));
          logins++;
          login(res, f.email!);
          return redirect(res, wall ? '/dashboard' : '/account');
        }
        if (path === '/verify') {
          const email = pendingCode.get(sidOf(req) ?? '');
          const u = email ? users.get(email) : undefined;
          if (!email || !u || u.code !== (f.code ?? '').trim()) return send(res, 400, page('Verify', `<p>Wrong code</p>`));
          u.active = true;
          login(res, email);
          return redirect(res, '/account');
        }
        return send(res, 404, 'not found', 'text/plain');
      }
      if (path === '/api/me') return send(res, 200, JSON.stringify({ email: user ?? null }), 'application/json');
      if (path === '/api/address') {
        if (!user) return send(res, 401, '{}', 'application/json');
        const coin = (url.searchParams.get('coin') ?? 'BTC') as keyof typeof wallets;
        return send(res, 200, JSON.stringify({ coin, address: wallets[coin] }), 'application/json');
      }
      if (path === '/deposit-qr.png' && qr) return send(res, user ? 200 : 401, user ? qr : Buffer.alloc(0), 'image/png');
      if (path === '/captcha.png' || path === '/recaptcha/anchor') return send(res, 200, '<p>captcha</p>');
      if (kind === 'spa-cookie-modal') return path === '/' ? send(res, 200, spa) : send(res, 404, 'not found', 'text/plain');
      if (wall) {
        if (path === (kind === 'odd-words' ? '/p/new' : '/signup')) return send(res, 200, registerForm());
        if (path === '/login') return send(res, 200, loginForm(url.searchParams.get('registered') ? 'Account created, please log in.' : ''));
        if (!user) return redirect(res, '/login');
        if (path === '/dashboard') return send(res, 200, page('Dashboard', '<h1>Dashboard</h1><p>Balance: 0.00</p><a href="/wallet/deposit" class="btn">Deposit</a> <a href="/logout">Log out</a>'));
        if (path === '/wallet/deposit') return send(res, 200, page('Deposit', coinTabs(wallets, 'en')));
        return redirect(res, '/dashboard');
      }
      if (kind === 'zh-wizard') {
        if (path === '/') return send(res, 200, page('币安财富', `${user ? accountNav : nav}<h1>欢迎来到币安财富</h1><p>每日收益 3%</p>`, 'zh'));
        if (path === '/register') return send(res, 200, zhWizard);
        if (path === '/login') return send(res, 200, page('登录', `${nav}<form method="post" action="/login"><label>邮箱 <input type="email" name="email"></label><label>密码 <input type="password" name="password"></label><button type="submit">登录</button></form>`, 'zh'));
        if (!user) return redirect(res, '/login');
        if (path === '/user') return send(res, 200, page('用户中心', `${accountNav}<h1>用户中心</h1><p>余额 0.00</p>`, 'zh'));
        if (path === '/recharge') return send(res, 200, page('充值', `${accountNav}${coinTabs(wallets, 'zh')}`, 'zh'));
        return redirect(res, '/user');
      }
      if (path === '/') return send(res, 200, page('CryptoMax', `${user ? accountNav : nav}<h1>CryptoMax Exchange</h1><p>Trade with zero fees. Sign up to deposit.</p>`));
      if (path === '/register') return send(res, 200, registerForm());
      if (path === '/login') return send(res, 200, loginForm());
      if (path === '/verify') return send(res, 200, page('Verify', `${nav}<h1>Verify your e-mail</h1><p>We have sent a verification code to your e-mail.</p><form method="post" action="/verify"><label>Verification code <input name="code" autocomplete="one-time-code"></label><button type="submit">Verify</button></form>`));
      if (path === '/activate') {
        const entry = [...users.entries()].find(([, u]) => u.code === url.searchParams.get('token'));
        if (!entry) return send(res, 400, page('Activation', '<p>Unknown link</p>'));
        entry[1].active = true;
        return send(res, 200, page('Activated', `${nav}<h1>Your account is active</h1><p>You can log in now.</p>`));
      }
      if (!user) return redirect(res, '/login');
      if (path === '/account') return send(res, 200, page('Account', `${accountNav}<h1>Welcome back</h1><p>Balance: 0.00 USDT</p>`));
      if (path === '/deposit') {
        if (kind === 'qr-deposit') return send(res, 200, page('Deposit', `${accountNav}<h1>Deposit USDT (TRC20)</h1><p>Scan to deposit:</p><img src="/deposit-qr.png" alt="deposit address" width="300">`));
        return send(res, 200, page('Deposit', `${accountNav}${coinTabs(wallets, 'en')}`));
      }
      return send(res, 404, page('Not found', '<p>Not found</p>'));
    })().catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, String(err), 'text/plain');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin, port, wallets, accounts, mails, rejections, logins: () => logins,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); mailer?.close(); }),
  };
}
