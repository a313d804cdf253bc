// The words that say what a button or link does, one table per kind, one line per language, plus the
// words of URLs (`words`: /register, /user/sign-up, #/recharge, ?act=reg) and texts that mean
// something only alone (`whole`: "x", "ok"). Phrases are written as the language writes them.
import type { ControlKind } from './funnel';
import type { Phrases } from './funnel-vocabulary-matching';

export interface ControlWords {
  phrases: Phrases;
  /** Words of URLs (and phrases in any language written without accents). */
  words?: readonly string[];
  /** Matches only as the whole text. */
  whole?: readonly string[];
}

export type KnownControlKind = Exclude<ControlKind, 'unknown'>;

export const CONTROL_VOCABULARY: Record<KnownControlKind, ControlWords> = {
  register: {
    phrases: {
      en: ['sign up', 'signup', 'register', 'register now', 'create account', 'create an account', 'create your account', 'open account', 'open an account', 'join now', 'join us', 'registration', 'create free account', 'create my account', 'create a free account'],
      zh: ['注册', '立即注册', '免费注册', '注册账号', '创建账户', '创建账号', '开户', '立即开户', '注册新账号'],
      vi: ['đăng ký', 'đăng kí', 'đăng ký ngay', 'tạo tài khoản', 'mở tài khoản', 'dang ky'],
      es: ['registrarse', 'regístrate', 'registrarme', 'registro', 'crear cuenta', 'crear una cuenta', 'abrir cuenta', 'abrir una cuenta', 'únete', 'crear mi cuenta'],
      pt: ['cadastrar', 'cadastre-se', 'cadastro', 'cadastrar-se', 'criar conta', 'criar uma conta', 'criar minha conta', 'registrar', 'registre-se', 'inscrever-se', 'abrir conta'],
      ru: ['регистрация', 'зарегистрироваться', 'создать аккаунт', 'создать учетную запись', 'открыть счет', 'зарегистрируйтесь'],
      th: ['สมัครสมาชิก', 'สมัคร', 'ลงทะเบียน', 'สร้างบัญชี', 'เปิดบัญชี', 'สมัครเลย'],
      id: ['daftar', 'daftar sekarang', 'buat akun', 'registrasi', 'mendaftar'],
      tr: ['kayıt ol', 'üye ol', 'hesap oluştur', 'kaydol', 'kayıt', 'hemen üye ol'],
      ar: ['تسجيل', 'التسجيل', 'سجل الآن', 'إنشاء حساب', 'انشاء حساب', 'فتح حساب', 'اشترك', 'سجل'],
    },
    words: ['register', 'signup', 'sign up', 'reg', 'regist', 'registration', 'join', 'create account', 'new account', 'zhuce', 'open account', 'enroll'],
    whole: ['join'],
  },
  login: {
    phrases: {
      en: ['log in', 'login', 'sign in', 'signin', 'log on', 'logon'],
      zh: ['登录', '登入', '立即登录', '去登录', '账号登录', '会员登录', '登陆'],
      vi: ['đăng nhập', 'dang nhap'],
      es: ['iniciar sesión', 'inicia sesión', 'acceder', 'entrar', 'ingresar'],
      pt: ['entrar', 'fazer login', 'acessar', 'iniciar sessão', 'login'],
      ru: ['войти', 'вход', 'авторизация', 'войти в аккаунт', 'авторизоваться'],
      th: ['เข้าสู่ระบบ', 'ล็อกอิน', 'ลงชื่อเข้าใช้'],
      id: ['masuk', 'login', 'log masuk'],
      tr: ['giriş yap', 'giriş', 'oturum aç', 'üye girişi'],
      ar: ['تسجيل الدخول', 'دخول', 'الدخول', 'سجل الدخول'],
    },
    words: ['login', 'log in', 'signin', 'sign in', 'logon', 'denglu', 'auth login', 'session new'],
  },
  deposit: {
    phrases: {
      en: ['deposit', 'deposit now', 'recharge', 'top up', 'topup', 'add funds', 'fund account', 'fund your account'],
      zh: ['充值', '存款', '入金', '储值', '立即充值', '充币', '去充值', '我要充值'],
      vi: ['nạp tiền', 'nạp', 'gửi tiền', 'nạp ngay'],
      es: ['depositar', 'depósito', 'recargar', 'recarga', 'ingresar fondos'],
      pt: ['depositar', 'depósito', 'recarregar', 'recarga', 'adicionar fundos'],
      ru: ['пополнить', 'пополнение', 'депозит', 'внести депозит', 'внести средства', 'пополнить счет'],
      th: ['ฝากเงิน', 'เติมเงิน', 'ฝาก'],
      id: ['setor', 'setoran', 'isi saldo', 'top up', 'deposit', 'setor dana'],
      tr: ['yatır', 'para yatır', 'para yatırma', 'bakiye yükle', 'para yükle', 'depozito'],
      ar: ['إيداع', 'ايداع', 'شحن الرصيد', 'شحن', 'إيداع الأموال'],
    },
    words: ['deposit', 'recharge', 'topup', 'top up', 'add funds', 'fund', 'funding', 'cashier', 'chongzhi', 'payin', 'pay in'],
  },
  accept_cookies: {
    phrases: {
      en: ['accept', 'accept all', 'accept cookies', 'accept all cookies', 'allow all', 'allow cookies', 'got it', 'i agree', 'agree', 'i understand', 'allow'],
      zh: ['同意', '接受', '全部接受', '我知道了', '知道了', '我同意', '接受全部'],
      vi: ['chấp nhận', 'đồng ý', 'chấp nhận tất cả', 'tôi hiểu', 'đã hiểu'],
      es: ['aceptar', 'aceptar todo', 'aceptar todas', 'acepto', 'entendido', 'de acuerdo', 'permitir todas'],
      pt: ['aceitar', 'aceitar todos', 'aceito', 'concordo', 'entendi', 'permitir todos'],
      ru: ['принять', 'принять все', 'согласен', 'понятно', 'разрешить все'],
      th: ['ยอมรับ', 'ยอมรับทั้งหมด', 'ตกลง', 'เข้าใจแล้ว'],
      id: ['terima', 'terima semua', 'setuju', 'mengerti', 'saya mengerti'],
      tr: ['kabul et', 'tümünü kabul et', 'kabul ediyorum', 'anladım', 'tamam'],
      ar: ['قبول', 'قبول الكل', 'موافق', 'أوافق', 'فهمت'],
    },
    whole: ['ok', 'okay', 'oke', 'okey', '好的', '好'],
  },
  close_modal: {
    phrases: {
      en: ['close', 'dismiss', 'no thanks', 'not now', 'maybe later', '×', '✕', '✖', '╳', '❌', '✗'],
      zh: ['关闭', '暂不', '以后再说', '跳过'],
      vi: ['đóng', 'bỏ qua', 'để sau'],
      es: ['cerrar', 'no gracias', 'ahora no'],
      pt: ['fechar', 'não obrigado', 'agora não'],
      ru: ['закрыть', 'не сейчас', 'нет спасибо'],
      th: ['ปิด', 'ไม่ใช่ตอนนี้', 'ข้าม'],
      id: ['tutup', 'nanti saja', 'tidak sekarang'],
      tr: ['kapat', 'şimdi değil', 'hayır teşekkürler'],
      ar: ['إغلاق', 'اغلاق', 'ليس الآن', 'لا شكرا'],
    },
    whole: ['x'],
  },
  next: {
    phrases: {
      en: ['next', 'continue', 'next step', 'proceed', 'go on'],
      zh: ['下一步', '继续', '下一页'],
      vi: ['tiếp theo', 'tiếp tục', 'bước tiếp theo'],
      es: ['siguiente', 'continuar', 'próximo paso', 'paso siguiente'],
      pt: ['próximo', 'continuar', 'avançar', 'seguinte', 'prosseguir'],
      ru: ['далее', 'продолжить', 'дальше', 'следующий шаг'],
      th: ['ถัดไป', 'ต่อไป', 'ดำเนินการต่อ', 'ขั้นตอนถัดไป'],
      id: ['lanjut', 'lanjutkan', 'berikutnya', 'selanjutnya'],
      tr: ['devam', 'devam et', 'ileri', 'sonraki', 'sonraki adım'],
      ar: ['التالي', 'متابعة', 'استمرار', 'الخطوة التالية'],
    },
    whole: ['>', '→', '»'],
  },
  submit: {
    phrases: {
      en: ['submit', 'confirm', 'done', 'finish', 'complete', 'send'],
      zh: ['提交', '确认', '确定', '完成', '立即提交', '发送'],
      vi: ['gửi', 'xác nhận', 'hoàn tất', 'hoàn thành'],
      es: ['enviar', 'confirmar', 'finalizar', 'listo'],
      pt: ['enviar', 'confirmar', 'concluir', 'finalizar', 'pronto'],
      ru: ['отправить', 'готово', 'завершить', 'сохранить'],
      th: ['ส่ง', 'เสร็จสิ้น', 'บันทึก'],
      id: ['kirim', 'konfirmasi', 'selesai', 'simpan'],
      tr: ['gönder', 'onayla', 'tamamla', 'bitir'],
      ar: ['إرسال', 'ارسال', 'تأكيد', 'إنهاء', 'حفظ'],
    },
  },
  send_code: {
    phrases: {
      en: ['send code', 'get code', 'send verification code', 'get verification code', 'resend code', 'resend', 'send otp', 'get otp', 'request code', 'send sms', 'send the code', 'send me a code', 'send email code'],
      zh: ['获取验证码', '发送验证码', '获取短信验证码', '发送短信验证码', '获取邮箱验证码', '发送邮箱验证码', '取得验证码', '重新发送', '重新获取', '获取动态码', '获取', '免费获取验证码'],
      vi: ['gửi mã', 'lấy mã', 'gửi lại mã', 'nhận mã', 'gửi mã xác minh', 'gửi otp', 'gửi lại'],
      es: ['enviar código', 'obtener código', 'reenviar código', 'enviar el código', 'reenviar', 'solicitar código'],
      pt: ['enviar código', 'obter código', 'reenviar código', 'receber código', 'reenviar', 'solicitar código'],
      ru: ['получить код', 'отправить код', 'выслать код', 'отправить код повторно', 'отправить повторно', 'запросить код'],
      th: ['ส่งรหัส', 'ขอรหัส', 'รับรหัส', 'ส่ง otp', 'ขอ otp', 'ส่งรหัสอีกครั้ง'],
      id: ['kirim kode', 'dapatkan kode', 'kirim ulang kode', 'minta kode', 'kirim otp', 'kirim ulang'],
      tr: ['kod gönder', 'kodu gönder', 'kod al', 'doğrulama kodu gönder', 'tekrar gönder', 'kodu tekrar gönder'],
      ar: ['إرسال الرمز', 'ارسال الرمز', 'إرسال رمز', 'إرسال رمز التحقق', 'احصل على الرمز', 'إرسال الكود', 'إعادة الإرسال', 'إعادة إرسال الرمز'],
    },
    words: ['send code', 'sendcode', 'get code', 'getcode', 'send sms', 'sendsms', 'send otp', 'resend'],
  },
  verify: {
    phrases: {
      en: ['verify', 'verify email', 'verify account', 'validate', 'activate', 'activate account', 'verify now'],
      zh: ['验证', '立即验证', '激活', '激活账号', '认证'],
      vi: ['xác minh', 'xác thực', 'kích hoạt'],
      es: ['verificar', 'validar', 'activar cuenta', 'activar'],
      pt: ['verificar', 'validar', 'ativar conta', 'ativar'],
      ru: ['подтвердить', 'проверить', 'активировать'],
      th: ['ยืนยัน', 'ตรวจสอบ', 'ยืนยันตัวตน', 'เปิดใช้งาน'],
      id: ['verifikasi', 'aktifkan', 'validasi'],
      tr: ['doğrula', 'doğrulama', 'etkinleştir', 'aktifleştir'],
      ar: ['تحقق', 'التحقق', 'تفعيل', 'تفعيل الحساب'],
    },
    words: ['verify', 'verification', 'activate', 'activation', 'confirm email', 'validate'],
  },
};

/**
 * Controls that look like a kind but are not one: leaving (log out, 退出登录, cerrar sesión, تسجيل
 * الخروج), which the agent must never click, and password recovery. A longer match wins, so they
 * hide the words inside them.
 */
export const NOT_A_STEP: ControlWords = {
  phrases: {
    en: ['log out', 'logout', 'sign out', 'signout', 'forgot password', 'reset password'],
    zh: ['退出', '退出登录', '注销', '忘记密码', '找回密码'],
    vi: ['đăng xuất', 'quên mật khẩu'],
    es: ['cerrar sesión', 'salir', 'olvidé mi contraseña', 'olvidaste tu contraseña'],
    pt: ['sair', 'encerrar sessão', 'esqueci minha senha', 'esqueceu a senha'],
    ru: ['выйти', 'выход', 'забыли пароль'],
    th: ['ออกจากระบบ', 'ลืมรหัสผ่าน'],
    id: ['keluar', 'lupa kata sandi', 'lupa password'],
    tr: ['çıkış yap', 'çıkış', 'oturumu kapat', 'şifremi unuttum'],
    ar: ['تسجيل الخروج', 'خروج', 'نسيت كلمة المرور'],
  },
  // In URLs also pages about the steps, not the steps: /help/how-to-deposit, /faq/register.
  words: ['logout', 'log out', 'signout', 'sign out', 'forgot', 'forgot password', 'reset password', 'password reset', 'oauth', 'sso', 'help', 'faq', 'guide', 'tutorial', 'news', 'blog', 'article', 'articles', 'support'],
};

/**
 * Identity providers: a register or log-in control that names one ("Sign in with Google", "微信登录")
 * is a social sign-in, which the persona never uses.
 */
export const IDENTITY_PROVIDERS: readonly string[] = ['google', 'facebook', 'apple', 'twitter', 'telegram', 'github', 'microsoft', 'wechat', 'weixin', 'qq', 'line', 'metamask', 'walletconnect', 'gmail', 'yahoo', 'vk', 'вконтакте', 'yandex', 'яндекс', 'tiktok', 'discord', 'kakao', 'zalo', '微信', '微博', '支付宝', '谷歌', 'جوجل', 'فيسبوك', 'กูเกิล', 'เฟซบุ๊ก'];

/**
 * Which kind wins when a text says several: the step the funnel is after (sign up, log in, deposit,
 * codes) over dismissing a banner, over the generic next/submit ("Sign up to continue" registers,
 * "Accept and continue" accepts). Among equals the first in the text wins ("Log in to deposit").
 */
export const CONTROL_TIERS: Record<KnownControlKind, number> = {
  register: 1,
  login: 1,
  deposit: 1,
  send_code: 1,
  verify: 1,
  accept_cookies: 2,
  close_modal: 2,
  next: 3,
  submit: 3,
};
