// The funnel agent's multilingual reading of forms and controls (pure): per language the sign-up,
// log-in and deposit controls and the e-mail, password, confirmation, code and terms fields, as sites
// write them; the traps (sign in vs sign up, تسجيل الدخول, an image captcha vs a sent code, invite
// codes, 同意 on a checkbox vs a button); the normalisation; and the tables themselves.
import assert from 'node:assert/strict';
import type { ControlDescriptor, ControlKind, FieldDescriptor, FieldKind } from '../../domain/investigations/funnel';
import { CONTROL_KINDS } from '../../domain/investigations/funnel';
import { controlKindOf, fieldKindOf, personaFieldFor, VOCABULARY_LANGUAGES, type VocabularyLanguage } from '../../domain/investigations/funnel-vocabulary';
import { CONTROL_VOCABULARY, type KnownControlKind } from '../../domain/investigations/funnel-vocabulary-controls';
import { FIELD_VOCABULARY, TERMS, type TextFieldKind } from '../../domain/investigations/funnel-vocabulary-fields';

const field = (f: Partial<FieldDescriptor>): FieldDescriptor => ({ tag: 'input', type: 'text', name: '', id: '', label: '', placeholder: '', autocomplete: '', required: false, ...f });
const button = (c: Partial<ControlDescriptor>): ControlDescriptor => ({ tag: 'button', role: 'button', text: '', ariaLabel: '', href: null, ...c });
const link = (text: string, href: string): ControlDescriptor => ({ tag: 'a', role: 'link', text, ariaLabel: '', href });

function expectFields(cases: Array<[Partial<FieldDescriptor>, FieldKind]>) {
  const wrong = cases.map(([f, want]) => [f, want, fieldKindOf(field(f))] as const).filter(([, want, got]) => want !== got);
  assert.deepEqual(wrong.map(([f, want, got]) => `${JSON.stringify(f)}: ${got}, expected ${want}`), []);
}

function expectControls(cases: Array<[ControlDescriptor, ControlKind]>) {
  const wrong = cases.map(([c, want]) => [c, want, controlKindOf(c)] as const).filter(([, want, got]) => want !== got);
  assert.deepEqual(wrong.map(([c, want, got]) => `${JSON.stringify(c)}: ${got}, expected ${want}`), []);
}

interface LanguageCases {
  register: ControlDescriptor[];
  login: ControlDescriptor[];
  deposit: ControlDescriptor[];
  email: Array<Partial<FieldDescriptor>>;
  password: Array<Partial<FieldDescriptor>>;
  password_confirm: Array<Partial<FieldDescriptor>>;
  verification_code: Array<Partial<FieldDescriptor>>;
  terms: Array<Partial<FieldDescriptor>>;
}

const PER_LANGUAGE: Record<VocabularyLanguage, LanguageCases> = {
  en: {
    register: [button({ text: 'Sign Up' }), link('Create an account', '/account/new'), button({ text: 'Register now' }), link('Open Account', '#')],
    login: [button({ text: 'Log In' }), link('Sign in', '/auth'), button({ text: 'LOGIN' })],
    deposit: [link('Deposit', '/wallet'), button({ text: 'Top up' }), link('Recharge now', '#')],
    email: [{ name: 'reg_email', placeholder: 'Enter your email address' }, { label: 'E-mail', name: 'field_3' }, { type: 'email', name: 'user' }],
    password: [{ type: 'password', name: 'userPwd', label: 'Password' }, { type: 'password', name: 'pass', placeholder: '8-20 characters' }],
    password_confirm: [{ type: 'password', name: 'confirm-password', label: 'Confirm Password' }, { type: 'password', name: 'password2', placeholder: 'Repeat password' }],
    verification_code: [{ name: 'verifyCode', placeholder: 'Verification code' }, { name: 'otp', autocomplete: 'one-time-code', type: 'tel' }, { name: 'sms_code', label: 'SMS code' }],
    terms: [{ type: 'checkbox', name: 'agree', label: 'I agree to the Terms of Service and Privacy Policy' }, { type: 'checkbox', id: 'tos', label: 'I accept the terms' }],
  },
  zh: {
    register: [button({ text: '注册' }), button({ text: '立即注册' }), link('免费注册', '/reg'), button({ text: '註冊' })],
    login: [button({ text: '登录' }), link('立即登录', '#'), button({ text: '登入' }), button({ text: '登錄' })],
    deposit: [link('充值', '#'), button({ text: '立即充值' }), link('存款', '/member'), button({ text: '充币' }), link('入金', '#'), button({ text: '儲值' })],
    email: [{ label: '邮箱', name: 'email' }, { placeholder: '请输入电子邮件', name: 'username' }, { placeholder: '請輸入電子郵件' }],
    password: [{ type: 'password', placeholder: '请输入密码', name: 'password' }, { type: 'password', label: '登录密码' }, { type: 'password', label: '密碼' }],
    password_confirm: [{ type: 'password', placeholder: '确认密码', name: 'repassword' }, { type: 'password', placeholder: '请再次输入密码' }, { type: 'password', label: '確認密碼' }],
    verification_code: [{ placeholder: '请输入验证码', name: 'code' }, { placeholder: '短信验证码', name: 'smsCode', type: 'tel' }, { label: '邮箱验证码' }, { placeholder: '驗證碼' }],
    terms: [{ type: 'checkbox', label: '我已阅读并同意《用户协议》和《隐私政策》' }, { type: 'checkbox', label: '同意服务条款', name: 'protocol' }],
  },
  vi: {
    register: [button({ text: 'Đăng ký' }), button({ text: 'ĐĂNG KÝ NGAY' }), link('Tạo tài khoản', '#')],
    login: [button({ text: 'Đăng nhập' }), link('ĐĂNG NHẬP', '#')],
    deposit: [button({ text: 'Nạp tiền' }), link('Nạp tiền ngay', '#')],
    email: [{ placeholder: 'Địa chỉ email' }, { label: 'Email', name: 'txtEmail' }],
    password: [{ type: 'password', placeholder: 'Mật khẩu' }, { type: 'password', label: 'Mật khẩu (6-20 ký tự)' }],
    password_confirm: [{ type: 'password', placeholder: 'Nhập lại mật khẩu' }, { type: 'password', label: 'Xác nhận mật khẩu' }],
    verification_code: [{ placeholder: 'Mã xác minh' }, { label: 'Mã OTP', name: 'otp_input' }],
    terms: [{ type: 'checkbox', label: 'Tôi đồng ý với Điều khoản sử dụng' }, { type: 'checkbox', label: 'Tôi đã đọc và chấp nhận các điều khoản' }],
  },
  es: {
    register: [button({ text: 'Registrarse' }), link('Crear cuenta', '#'), button({ text: 'Regístrate gratis' })],
    login: [button({ text: 'Iniciar sesión' }), link('Entrar', '#')],
    deposit: [button({ text: 'Depositar' }), link('Recargar saldo', '#')],
    email: [{ label: 'Correo electrónico' }, { placeholder: 'Tu correo', name: 'correo' }],
    password: [{ type: 'password', label: 'Contraseña' }, { type: 'password', placeholder: 'Contrasena' }],
    password_confirm: [{ type: 'password', label: 'Confirmar contraseña' }, { type: 'password', placeholder: 'Repita la contraseña' }],
    verification_code: [{ label: 'Código', name: 'codigo' }, { placeholder: 'Código de verificación' }],
    terms: [{ type: 'checkbox', label: 'Acepto los Términos y Condiciones' }, { type: 'checkbox', label: 'He leído y acepto la Política de privacidad' }],
  },
  pt: {
    register: [button({ text: 'Cadastrar' }), link('Criar conta', '#'), button({ text: 'Cadastre-se' })],
    login: [button({ text: 'Entrar' }), link('Fazer login', '#')],
    deposit: [button({ text: 'Depositar' }), link('Depósito', '#')],
    email: [{ label: 'E-mail' }, { placeholder: 'Seu endereço de e-mail' }],
    password: [{ type: 'password', label: 'Senha' }, { type: 'password', placeholder: 'Crie uma senha' }],
    password_confirm: [{ type: 'password', label: 'Confirmar senha' }, { type: 'password', placeholder: 'Repita a senha' }],
    verification_code: [{ label: 'Código de verificação' }, { placeholder: 'Digite o código', type: 'tel' }],
    terms: [{ type: 'checkbox', label: 'Li e aceito os Termos de Uso' }, { type: 'checkbox', label: 'Concordo com os termos e condições' }],
  },
  ru: {
    register: [button({ text: 'Регистрация' }), button({ text: 'Зарегистрироваться' }), link('Создать аккаунт', '#')],
    login: [button({ text: 'Войти' }), link('Вход', '#')],
    deposit: [button({ text: 'Пополнить' }), link('Депозит', '#')],
    email: [{ label: 'Электронная почта' }, { placeholder: 'Ваш e-mail' }],
    password: [{ type: 'password', label: 'Пароль' }, { type: 'password', placeholder: 'Придумайте пароль' }],
    password_confirm: [{ type: 'password', label: 'Повторите пароль' }, { type: 'password', placeholder: 'Подтвердите пароль' }],
    verification_code: [{ label: 'Код подтверждения' }, { placeholder: 'Код из СМС' }],
    terms: [{ type: 'checkbox', label: 'Я принимаю условия пользовательского соглашения' }, { type: 'checkbox', label: 'Согласен с правилами' }],
  },
  th: {
    register: [button({ text: 'สมัครสมาชิก' }), link('สมัครเลย', '#'), button({ text: 'เปิดบัญชี' })],
    login: [button({ text: 'เข้าสู่ระบบ' }), link('ลงชื่อเข้าใช้', '#')],
    deposit: [button({ text: 'ฝากเงิน' }), link('เติมเงิน', '#')],
    email: [{ label: 'อีเมล' }, { placeholder: 'กรอกอีเมล์ของคุณ' }],
    password: [{ type: 'password', label: 'รหัสผ่าน' }, { type: 'password', placeholder: 'กรอกรหัสผ่าน' }],
    password_confirm: [{ type: 'password', label: 'ยืนยันรหัสผ่าน' }, { type: 'password', placeholder: 'กรอกรหัสผ่านอีกครั้ง' }],
    verification_code: [{ label: 'รหัสยืนยัน' }, { placeholder: 'รหัส OTP 6 หลัก' }],
    terms: [{ type: 'checkbox', label: 'ฉันยอมรับข้อกำหนดและเงื่อนไข' }, { type: 'checkbox', label: 'ยอมรับนโยบายความเป็นส่วนตัว' }],
  },
  id: {
    register: [button({ text: 'Daftar' }), link('Daftar Sekarang', '#'), button({ text: 'Buat Akun' })],
    login: [button({ text: 'Masuk' }), link('Login', '#')],
    deposit: [button({ text: 'Setor' }), link('Isi Saldo', '#'), button({ text: 'Deposit' })],
    email: [{ label: 'Alamat Email' }, { placeholder: 'Masukkan email' }],
    password: [{ type: 'password', label: 'Kata Sandi' }, { type: 'password', placeholder: 'Masukkan kata sandi' }],
    password_confirm: [{ type: 'password', label: 'Konfirmasi Kata Sandi' }, { type: 'password', placeholder: 'Ulangi kata sandi' }],
    verification_code: [{ label: 'Kode Verifikasi' }, { placeholder: 'Masukkan kode OTP' }],
    terms: [{ type: 'checkbox', label: 'Saya setuju dengan Syarat dan Ketentuan' }, { type: 'checkbox', label: 'Saya telah membaca kebijakan privasi' }],
  },
  tr: {
    register: [button({ text: 'Kayıt Ol' }), button({ text: 'KAYIT OL' }), link('Üye Ol', '#'), button({ text: 'Hesap oluştur' })],
    login: [button({ text: 'Giriş Yap' }), button({ text: 'GİRİŞ YAP' }), link('Giris yap', '#')],
    deposit: [button({ text: 'Para Yatır' }), link('Yatır', '#')],
    email: [{ label: 'E-posta' }, { placeholder: 'E-posta adresiniz' }],
    password: [{ type: 'password', label: 'Şifre' }, { type: 'password', placeholder: 'Parola' }],
    password_confirm: [{ type: 'password', label: 'Şifre Tekrar' }, { type: 'password', placeholder: 'Şifreyi onayla' }],
    verification_code: [{ label: 'Doğrulama Kodu' }, { placeholder: 'SMS kodu' }],
    terms: [{ type: 'checkbox', label: 'Kullanım koşullarını okudum ve kabul ediyorum' }, { type: 'checkbox', label: 'Üyelik sözleşmesini onaylıyorum' }],
  },
  ar: {
    register: [button({ text: 'تسجيل' }), link('إنشاء حساب', '#'), button({ text: 'سجل الآن' })],
    login: [button({ text: 'تسجيل الدخول' }), link('دخول', '#')],
    deposit: [button({ text: 'إيداع' }), link('ايداع الأموال', '#')],
    email: [{ label: 'البريد الإلكتروني' }, { placeholder: 'أدخل بريدك الإلكتروني' }],
    password: [{ type: 'password', label: 'كلمة المرور' }, { type: 'password', placeholder: 'أدخل كلمة السر' }],
    password_confirm: [{ type: 'password', label: 'تأكيد كلمة المرور' }, { type: 'password', placeholder: 'أعد إدخال كلمة المرور' }],
    verification_code: [{ label: 'رمز التحقق' }, { placeholder: 'أدخل الرمز المرسل إليك' }],
    terms: [{ type: 'checkbox', label: 'أوافق على الشروط والأحكام' }, { type: 'checkbox', label: 'قرأت سياسة الخصوصية وأوافق عليها' }],
  },
};

describe('funnel vocabulary', () => {
  it('has cases for every language the vocabulary covers', () => {
    assert.deepEqual(Object.keys(PER_LANGUAGE).sort(), [...VOCABULARY_LANGUAGES].sort());
  });

  describe('traps', () => {
    it('tells sign in from sign up, 登录 from 注册, and reads the step a sentence asks for', () => {
      expectControls([
        [button({ text: 'Sign in' }), 'login'],
        [button({ text: 'Sign up' }), 'register'],
        [link('Already have an account? Sign in', '#'), 'login'],
        [link("Don't have an account? Sign up", '#'), 'register'],
        [button({ text: 'Sign up to continue' }), 'register'],
        [button({ text: 'Log in to deposit' }), 'login'],
        [button({ text: '登录' }), 'login'],
        [button({ text: '注册' }), 'register'],
        [link('没有账号？立即注册', '#'), 'register'],
        [button({ text: '登录后充值' }), 'login'],
        [button({ text: 'Accept and continue' }), 'accept_cookies'],
        [button({ text: '同意并注册' }), 'register'],
      ]);
    });

    it('reads تسجيل الدخول as log-in although it contains تسجيل, and تسجيل الخروج as nothing to click', () => {
      expectControls([
        [button({ text: 'تسجيل الدخول' }), 'login'],
        [button({ text: 'تسجيل' }), 'register'],
        [button({ text: 'تَسْجِيل الدُّخُول' }), 'login'],
        [button({ text: 'تسجيل الخروج' }), 'unknown'],
        [link('ليس لديك حساب؟ إنشاء حساب', '#'), 'register'],
      ]);
    });

    it('never reads leaving, password recovery or a social sign-in as a funnel step', () => {
      expectControls([
        [button({ text: '退出登录' }), 'unknown'],
        [button({ text: 'Log out' }), 'unknown'],
        [link('Cerrar sesión', '#'), 'unknown'],
        [link('Oturumu kapat', '#'), 'unknown'],
        [link('Forgot password?', '/forgot-password'), 'unknown'],
        [link('Account', '/logout'), 'unknown'],
        [button({ text: 'Sign in with Google' }), 'unknown'],
        [button({ text: 'Continue with Facebook' }), 'unknown'], [button({ text: 'Continue with email' }), 'next'], [button({ text: 'Continuar con Google' }), 'unknown'],
        [button({ text: '微信登录' }), 'unknown'],
        [link('Sign up', '/auth/google'), 'unknown'],
        [button({ text: 'Deposit via Telegram' }), 'deposit'],
      ]);
    });

    it('reads an image code as a captcha and a code sent by SMS or e-mail as a verification code', () => {
      expectFields([
        [{ placeholder: '图形验证码', name: 'imgCode' }, 'captcha'],
        [{ placeholder: '请输入图片验证码', name: 'verifyCode' }, 'captcha'],
        [{ placeholder: '验证码', name: 'captcha' }, 'captcha'],
        [{ placeholder: '人机验证' }, 'captcha'],
        [{ placeholder: '短信验证码', name: 'smsCaptcha' }, 'verification_code'],
        [{ label: 'E-mail verification code', name: 'emailCaptcha' }, 'verification_code'],
        [{ placeholder: 'Enter the code sent to your phone', name: 'code' }, 'verification_code'],
        [{ placeholder: 'Mã hình ảnh' }, 'captcha'],
        [{ placeholder: 'Mã xác minh', name: 'captcha_img' }, 'captcha'],
        [{ placeholder: 'Código da imagem', name: 'code' }, 'captcha'],
        [{ placeholder: 'Код с картинки' }, 'captcha'],
        [{ tag: 'textarea', type: '', name: 'g-recaptcha-response', id: 'g-recaptcha-response' }, 'captcha'],
        [{ tag: 'textarea', type: '', name: 'h-captcha-response' }, 'captcha'],
        [{ type: 'hidden', name: 'cf-turnstile-response' }, 'captcha'],
        [{ name: 'hcaptcha' }, 'captcha'],
        [{ type: 'hidden', name: 'csrf_token' }, 'unknown'],
        [{ type: 'tel', autocomplete: 'one-time-code', name: 'c' }, 'verification_code'],
        [{ label: 'Code', name: 'captcha' }, 'captcha'],
        [{ label: 'Email', placeholder: 'We will send a verification code to this address', name: 'email' }, 'email'],
        [{ label: '手机号', name: 'mobile', type: 'tel', placeholder: '用于接收短信验证码' }, 'phone'],
        [{ label: '验证码', name: 'code', autocomplete: 'tel' }, 'verification_code'],
      ]);
    });

    it('leaves invitation, referral and promotion codes to nobody (unknown), in every wording', () => {
      expectFields([
        [{ name: 'inviteCode', placeholder: '邀请码（选填）' }, 'unknown'],
        [{ placeholder: '请输入推荐码', name: 'code' }, 'unknown'],
        [{ label: 'Referral code (optional)', type: 'tel' }, 'unknown'],
        [{ label: 'Invitation code', autocomplete: 'one-time-code' }, 'unknown'],
        [{ name: 'promo_code', placeholder: 'Code' }, 'unknown'],
        [{ placeholder: 'Mã giới thiệu' }, 'unknown'],
        [{ placeholder: 'Código de convite' }, 'unknown'],
        [{ placeholder: 'Código de invitación' }, 'unknown'],
        [{ placeholder: 'Реферальный код' }, 'unknown'],
        [{ placeholder: 'รหัสแนะนำ' }, 'unknown'],
        [{ placeholder: 'Kode referal' }, 'unknown'],
        [{ placeholder: 'Davet kodu' }, 'unknown'],
        [{ placeholder: 'رمز الدعوة' }, 'unknown'],
        [{ name: 'recommendCode' }, 'unknown'],
      ]);
      expectFields([[{ placeholder: '推荐使用Gmail邮箱注册', name: 'email', type: 'text' }, 'email']]);
    });

    it('reads 同意 (and its peers) as terms on a checkbox and as accepting cookies on a button', () => {
      const words = ['同意', 'Đồng ý', 'Acepto', 'Aceito', 'Согласен', 'ยอมรับ', 'Setuju', 'Kabul ediyorum', 'موافق', 'I agree'];
      for (const text of words) {
        assert.equal(fieldKindOf(field({ type: 'checkbox', label: text })), 'terms', `checkbox ${text}`);
        assert.equal(controlKindOf(button({ text })), 'accept_cookies', `button ${text}`);
      }
      expectFields([
        [{ type: 'checkbox', label: 'Remember me', name: 'remember' }, 'unknown'],
        [{ type: 'checkbox', label: '记住我' }, 'unknown'],
        [{ type: 'checkbox', label: 'I agree to receive marketing emails' }, 'unknown'],
        [{ type: 'checkbox', label: 'I agree to the Terms and to receive newsletters' }, 'terms'],
        [{ type: 'checkbox', name: 'agreement' }, 'terms'],
        [{ type: 'checkbox', label: 'Show password' }, 'unknown'],
      ]);
    });

    it('believes type=password over the words, and a confirm word beside it makes the confirmation', () => {
      expectFields([
        [{ type: 'password', label: 'Confirm', name: 'pw_b' }, 'password_confirm'],
        [{ type: 'password', label: '再次输入' }, 'password_confirm'],
        [{ type: 'password', name: 'password_confirmation' }, 'password_confirm'],
        [{ type: 'password', name: 'passwordConfirm', autocomplete: 'new-password' }, 'password_confirm'],
        [{ type: 'password', name: 'password', autocomplete: 'new-password' }, 'password'],
        [{ type: 'password', label: 'Verification code' }, 'password'],
        [{ type: 'text', label: 'Confirm password' }, 'password_confirm'],
        [{ type: 'text', label: 'Password' }, 'password'],
        [{ type: 'email', label: 'Username', name: 'username' }, 'email'],
      ]);
    });
  });

  describe('the words the funnel meets', () => {
    it('reads every field wording of the brief as its kind', () => {
      const table: Record<string, FieldKind> = {
        邮箱: 'email', 电子邮件: 'email', 手机号: 'phone', 密码: 'password', 确认密码: 'password_confirm', 验证码: 'verification_code', 图形验证码: 'captcha',
        'Mật khẩu': 'password', 'Nhập lại mật khẩu': 'password_confirm', 'Số điện thoại': 'phone', 'Mã xác minh': 'verification_code',
        contraseña: 'password', 'confirmar contraseña': 'password_confirm', 'correo electrónico': 'email', teléfono: 'phone', código: 'verification_code',
        senha: 'password', 'confirmar senha': 'password_confirm', 'e-mail': 'email', celular: 'phone', 'código de verificação': 'verification_code',
        пароль: 'password', 'повторите пароль': 'password_confirm', 'электронная почта': 'email', телефон: 'phone', 'код подтверждения': 'verification_code',
        รหัสผ่าน: 'password', ยืนยันรหัสผ่าน: 'password_confirm', อีเมล: 'email', เบอร์โทรศัพท์: 'phone', รหัสยืนยัน: 'verification_code',
        'kata sandi': 'password', 'konfirmasi kata sandi': 'password_confirm', 'nomor telepon': 'phone', 'kode verifikasi': 'verification_code',
        şifre: 'password', 'şifre tekrar': 'password_confirm', 'e-posta': 'email', telefon: 'phone', 'doğrulama kodu': 'verification_code',
        'كلمة المرور': 'password', 'تأكيد كلمة المرور': 'password_confirm', 'البريد الإلكتروني': 'email', 'رقم الهاتف': 'phone', 'رمز التحقق': 'verification_code',
        'First name': 'first_name', 'Last name': 'last_name', 'Full name': 'full_name', Username: 'username', 'Date of birth': 'birth_date',
        'Street address': 'address_line', City: 'city', 'Postal code': 'postcode', Country: 'country', 'Country code': 'unknown', 用户名: 'username', 姓名: 'full_name',
      };
      expectFields(Object.entries(table).map(([label, kind]) => [{ label }, kind]));
    });

    it('reads every terms wording of the brief on a checkbox', () => {
      const words = ['I agree', 'Terms', '同意', '条款', 'điều khoản', 'términos', 'termos', 'условия', 'เงื่อนไข', 'syarat', 'koşullar', 'الشروط', '我已阅读并同意'];
      expectFields(words.map((label) => [{ type: 'checkbox', label }, 'terms']));
    });

    it('reads input types, autocomplete tokens and snake, camel and kebab names', () => {
      expectFields([
        [{ type: 'email' }, 'email'], [{ type: 'password' }, 'password'], [{ type: 'tel' }, 'phone'], [{ type: 'date' }, 'birth_date'],
        [{ autocomplete: 'email' }, 'email'], [{ autocomplete: 'new-password' }, 'password'], [{ autocomplete: 'current-password' }, 'password'],
        [{ autocomplete: 'given-name' }, 'first_name'], [{ autocomplete: 'family-name' }, 'last_name'], [{ autocomplete: 'name' }, 'full_name'],
        [{ autocomplete: 'tel' }, 'phone'], [{ autocomplete: 'section-x billing tel-national' }, 'phone'], [{ autocomplete: 'bday' }, 'birth_date'],
        [{ autocomplete: 'shipping street-address' }, 'address_line'], [{ autocomplete: 'postal-code' }, 'postcode'], [{ autocomplete: 'country' }, 'country'],
        [{ autocomplete: 'one-time-code' }, 'verification_code'], [{ autocomplete: 'username' }, 'username'], [{ autocomplete: 'off' }, 'unknown'],
        [{ name: 'reg_email' }, 'email'], [{ name: 'userPwd' }, 'password'], [{ id: 'confirm-password' }, 'password_confirm'], [{ name: 'mobile' }, 'phone'],
        [{ name: 'verifyCode' }, 'verification_code'], [{ name: 'captcha' }, 'captcha'], [{ name: 'user[email]' }, 'email'], [{ name: 'SMSCode' }, 'verification_code'],
        [{ name: 'zipCode' }, 'postcode'], [{ name: 'areaCode' }, 'unknown'], [{ name: 'q', placeholder: 'Search' }, 'unknown'],
        [{ tag: 'select', type: 'select-one', name: 'country' }, 'country'], [{ tag: 'select', type: 'select-one', label: '区号' }, 'unknown'],
        [{ label: 'Email or phone' }, 'email'], [{ label: '手机号/邮箱' }, 'email'], [{ label: 'Phone number without country code', type: 'tel' }, 'phone'],
        [{ label: '', placeholder: '', name: 'field1' }, 'unknown'], [{ label: 'Login' }, 'username'], [{ label: 'Wallet address' }, 'unknown'], [{ label: '提币地址' }, 'unknown'], [{ type: 'checkbox', name: 'agree' }, 'terms'],
      ]);
    });

    it('reads every control wording of the brief as its kind', () => {
      const table: Record<Exclude<ControlKind, 'unknown'>, string[]> = {
        register: ['sign up', 'register', 'create account', 'open account', '注册', '立即注册', 'đăng ký', 'registrarse', 'crear cuenta', 'cadastrar', 'criar conta', 'регистрация', 'зарегистрироваться', 'สมัครสมาชิก', 'daftar', 'kayıt ol', 'üye ol', 'تسجيل', 'إنشاء حساب'],
        login: ['log in', 'sign in', '登录', 'đăng nhập', 'iniciar sesión', 'entrar', 'войти', 'เข้าสู่ระบบ', 'masuk', 'giriş yap', 'تسجيل الدخول'],
        deposit: ['deposit', 'recharge', 'top up', '充值', '存款', '入金', 'nạp tiền', 'depositar', 'пополнить', 'депозит', 'ฝากเงิน', 'setor', 'yatır', 'إيداع'],
        accept_cookies: ['accept cookies', 'accept all', 'got it', '同意', '接受', 'chấp nhận', 'aceptar', 'aceitar', 'принять', 'ยอมรับ', 'terima', 'kabul et', 'قبول'],
        close_modal: ['close', '×', '✕', '关闭', 'đóng', 'cerrar', 'fechar', 'закрыть', 'ปิด', 'tutup', 'kapat', 'إغلاق', 'x', 'X'],
        next: ['next', 'continue', '下一步', 'tiếp theo', 'siguiente', 'próximo', 'continuar', 'далее', 'ถัดไป', 'lanjut', 'devam', 'التالي'],
        submit: ['submit', 'confirm', '提交', '确认', 'gửi', 'enviar', 'отправить', 'ส่ง', 'kirim', 'gönder', 'إرسال'],
        send_code: ['send code', 'get code', '获取验证码', '发送验证码', 'gửi mã', 'enviar código', 'получить код', 'ส่งรหัส', 'kirim kode', 'kod gönder', 'إرسال الرمز', '获取短信验证码', 'إرسال رمز التحقق'],
        verify: ['verify', '验证', 'xác minh', 'verificar', 'подтвердить', 'ยืนยัน', 'verifikasi', 'doğrula', 'تحقق'],
      };
      expectControls(Object.entries(table).flatMap(([kind, texts]) => texts.map((text) => [button({ text }), kind as ControlKind] as [ControlDescriptor, ControlKind])));
    });

    it('reads the URL when the text says nothing, and the accessible name of an icon button', () => {
      expectControls([
        [link('', '/register'), 'register'], [link('Start', '/signup'), 'register'], [link('', '/user/sign-up?from=home'), 'register'],
        [link('', 'https://scam.test/login'), 'login'], [link('', '/deposit'), 'deposit'], [link('', '/recharge'), 'deposit'],
        [link('', '#/recharge'), 'deposit'], [link('', 'index.php?m=member&a=reg'), 'register'], [link('', '/zhuce.html'), 'register'],
        [link('Continue', '/deposit'), 'deposit'], [link('Help', '/help/how-to-deposit'), 'unknown'], [link('', '/faq/register'), 'unknown'],
        [button({ text: 'Create free account' }), 'register'], [button({ text: 'Crear mi cuenta' }), 'register'], [button({ text: 'Join' }), 'register'], [link('', 'https://login.scam.test/home'), 'unknown'], [link('', 'javascript:void(0)'), 'unknown'],
        [button({ text: '', ariaLabel: 'Close' }), 'close_modal'], [button({ text: '', ariaLabel: '关闭' }), 'close_modal'],
        [button({ text: 'Go' }), 'unknown'], [button({ text: '' }), 'unknown'], [button({ role: 'checkbox', text: '同意' }), 'unknown'],
      ]);
    });

    it('names the persona field each kind is filled from, and none for terms, captchas and unknown fields', () => {
      const kinds: FieldKind[] = ['email', 'password', 'password_confirm', 'verification_code', 'phone', 'first_name', 'terms', 'captcha', 'unknown'];
      assert.deepEqual(kinds.map(personaFieldFor), ['email', 'password', 'password', 'verification_code', 'phone', 'first_name', null, null, null]);
      expectFields([[{ type: 'checkbox', label: '我已满18岁' }, 'terms'], [{ type: 'search', placeholder: 'Email' }, 'unknown']]);
    });
  });

  describe('normalisation', () => {
    it('folds case, full-width forms, punctuation, traditional Chinese and invisible joiners', () => {
      expectControls([
        [button({ text: 'ＬＯＧＩＮ' }), 'login'], [button({ text: '  Sign\u00a0Up!  ' }), 'register'], [button({ text: '【登录】' }), 'login'],
        [button({ text: '獲取驗證碼' }), 'send_code'], [button({ text: '關閉' }), 'close_modal'], [button({ text: 'Đăng\u200b ký' }), 'register'],
      ]);
      expectFields([[{ label: '電子郵件：' }, 'email'], [{ placeholder: 'ＥＭＡＩＬ' }, 'email'], [{ label: '*密码', type: 'text' }, 'password']]);
    });

    it('accepts text without accents where a language allows it, never in Vietnamese', () => {
      expectControls([
        [button({ text: 'Iniciar sesion' }), 'login'], [button({ text: 'GIRIS YAP' }), 'login'], [button({ text: 'KAYIT OL' }), 'register'], [button({ text: 'GİRİŞ YAP' }), 'login'],
        [button({ text: 'Đăng ký' }), 'register'], [button({ text: 'Đăng nhập' }), 'login'], [button({ text: 'Đăng xuất' }), 'unknown'],
        [button({ text: 'Đăng ký'.normalize('NFD') }), 'register'], [button({ text: 'Đồng' }), 'unknown'], [button({ text: 'Đóng' }), 'close_modal'],
        [button({ text: 'Đồng ý' }), 'accept_cookies'],
        [button({ text: 'Yatırım planları' }), 'unknown'], [button({ text: 'Вход' }), 'login'], [button({ text: 'Выход' }), 'unknown'],
      ]);
      expectFields([[{ label: 'Contrasena', type: 'text' }, 'password'], [{ label: 'Codigo de verificacao' }, 'verification_code'], [{ label: 'SIFRE TEKRAR', type: 'password' }, 'password_confirm']]);
    });

    it('keeps Thai words whole: ปิด is not in เปิด', () => {
      expectControls([[button({ text: 'ปิด' }), 'close_modal'], [button({ text: 'เปิด' }), 'unknown'], [button({ text: 'เปิดบัญชี' }), 'register'], [button({ text: 'ส่งรหัสยืนยัน' }), 'send_code']]);
    });
  });

  describe('the tables', () => {
    it('give every language words for every control kind and for the fields a sign-up needs', () => {
      const missing: string[] = [];
      for (const lang of VOCABULARY_LANGUAGES) {
        for (const kind of CONTROL_KINDS.filter((k): k is KnownControlKind => k !== 'unknown')) if (!CONTROL_VOCABULARY[kind].phrases[lang]?.length) missing.push(`control ${kind} ${lang}`);
        for (const kind of ['email', 'password', 'password_confirm', 'verification_code', 'captcha', 'phone'] as const) if (!FIELD_VOCABULARY[kind].phrases[lang]?.length) missing.push(`field ${kind} ${lang}`);
        if (!TERMS.phrases[lang]?.length) missing.push(`terms ${lang}`);
      }
      assert.deepEqual(missing, []);
    });

    it('read each of their control phrases, alone on a button, as its own kind', () => {
      const wrong: string[] = [];
      for (const [kind, t] of Object.entries(CONTROL_VOCABULARY)) {
        for (const [lang, phrases] of Object.entries(t.phrases)) {
          for (const text of phrases) if (controlKindOf(button({ text })) !== kind) wrong.push(`${lang} "${text}": ${controlKindOf(button({ text }))}, expected ${kind}`);
        }
      }
      assert.deepEqual(wrong, []);
    });

    it('read each of their field phrases, alone as a label, as its own kind', () => {
      const wrong: string[] = [];
      for (const [kind, t] of Object.entries(FIELD_VOCABULARY) as Array<[TextFieldKind, (typeof FIELD_VOCABULARY)[TextFieldKind]]>) {
        for (const [lang, phrases] of Object.entries(t.phrases)) {
          for (const label of phrases) if (fieldKindOf(field({ label })) !== kind) wrong.push(`${lang} "${label}": ${fieldKindOf(field({ label }))}, expected ${kind}`);
        }
        for (const name of t.words) if (fieldKindOf(field({ name })) !== kind) wrong.push(`name "${name}": ${fieldKindOf(field({ name }))}, expected ${kind}`);
      }
      assert.deepEqual(wrong, []);
    });
  });

  for (const lang of VOCABULARY_LANGUAGES) {
    describe(`${lang}`, () => {
      const cases = PER_LANGUAGE[lang];
      it('reads register, log-in and deposit controls', () => {
        expectControls([
          ...cases.register.map((c) => [c, 'register'] as [ControlDescriptor, ControlKind]),
          ...cases.login.map((c) => [c, 'login'] as [ControlDescriptor, ControlKind]),
          ...cases.deposit.map((c) => [c, 'deposit'] as [ControlDescriptor, ControlKind]),
        ]);
      });

      it('reads e-mail, password, confirmation, verification code and terms fields', () => {
        const kinds = ['email', 'password', 'password_confirm', 'verification_code', 'terms'] as const;
        expectFields(kinds.flatMap((kind) => cases[kind].map((f) => [f, kind] as [Partial<FieldDescriptor>, FieldKind])));
      });
    });
  }
});
