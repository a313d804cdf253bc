// The words that say what a form field is for, one table per kind, one line per language, plus the
// English-like words of names and ids (`words`, matched on identifierWords(): reg_email → "reg email").
// Phrases are written as the language writes them; normaliseText() does the rest (case, full-width,
// traditional Chinese, punctuation), and accents may be left off where MATCHES_WITHOUT_ACCENTS says so.
import type { FieldKind } from './funnel';
import type { Phrases } from './funnel-vocabulary-matching';

export interface FieldWords {
  phrases: Phrases;
  /** Words of names and ids (and of phrases in any language written without accents). */
  words: readonly string[];
}

/** Kinds read from text; 'unknown' here is "something else we leave alone" (a country calling code, an ID number). */
export type TextFieldKind = Exclude<FieldKind, 'terms'>;

export const FIELD_VOCABULARY: Record<TextFieldKind, FieldWords> = {
  email: {
    phrases: {
      en: ['email', 'e-mail', 'email address', 'mail address'],
      zh: ['邮箱', '电子邮件', '电子邮箱', '邮件地址', '邮箱地址', '电邮', 'email'],
      vi: ['email', 'địa chỉ email', 'thư điện tử', 'hộp thư'],
      es: ['correo electrónico', 'correo', 'dirección de correo', 'email'],
      pt: ['e-mail', 'endereço de e-mail', 'correio eletrônico'],
      ru: ['электронная почта', 'эл почта', 'почта', 'адрес почты', 'e-mail'],
      th: ['อีเมล', 'อีเมล์', 'ที่อยู่อีเมล'],
      id: ['email', 'alamat email', 'surel', 'surat elektronik'],
      tr: ['e-posta', 'e-posta adresi', 'eposta'],
      ar: ['البريد الإلكتروني', 'البريد', 'بريد', 'الإيميل', 'الايميل', 'بريد إلكتروني'],
    },
    words: ['email', 'e mail', 'mail', 'email address', 'useremail', 'regemail', 'loginemail'],
  },
  password: {
    phrases: {
      en: ['password', 'passcode', 'create password', 'new password', 'login password', 'fund password'],
      zh: ['密码', '登录密码', '设置密码', '新密码', '资金密码', '交易密码', '口令'],
      vi: ['mật khẩu', 'mật khẩu mới'],
      es: ['contraseña', 'clave', 'nueva contraseña'],
      pt: ['senha', 'nova senha', 'crie uma senha'],
      ru: ['пароль', 'новый пароль', 'придумайте пароль'],
      th: ['รหัสผ่าน', 'รหัสผ่านใหม่'],
      id: ['kata sandi', 'sandi', 'password', 'kata kunci'],
      tr: ['şifre', 'parola', 'yeni şifre'],
      ar: ['كلمة المرور', 'كلمة السر', 'الرقم السري'],
    },
    words: ['password', 'pwd', 'passwd', 'pass', 'pass word', 'userpwd', 'loginpwd', 'newpassword', 'login password'],
  },
  password_confirm: {
    phrases: {
      en: ['confirm password', 'repeat password', 're-enter password', 'retype password', 'password again', 'password confirmation', 'confirm your password'],
      zh: ['确认密码', '重复密码', '再次输入密码', '请再次输入密码', '确认登录密码', '确认新密码', '重复输入密码'],
      vi: ['nhập lại mật khẩu', 'xác nhận mật khẩu', 'nhắc lại mật khẩu'],
      es: ['confirmar contraseña', 'repetir contraseña', 'repita la contraseña', 'confirme su contraseña', 'confirmar la contraseña'],
      pt: ['confirmar senha', 'confirme a senha', 'repetir senha', 'repita a senha', 'confirmação de senha', 'confirme sua senha'],
      ru: ['повторите пароль', 'подтвердите пароль', 'подтверждение пароля', 'повтор пароля', 'пароль еще раз'],
      th: ['ยืนยันรหัสผ่าน', 'กรอกรหัสผ่านอีกครั้ง', 'ใส่รหัสผ่านอีกครั้ง'],
      id: ['konfirmasi kata sandi', 'ulangi kata sandi', 'konfirmasi password', 'ketik ulang kata sandi', 'konfirmasi sandi'],
      tr: ['şifre tekrar', 'şifreyi tekrarla', 'şifre tekrarı', 'şifreyi onayla', 'şifre onayı', 'parola tekrar', 'tekrar şifre'],
      ar: ['تأكيد كلمة المرور', 'أعد إدخال كلمة المرور', 'تأكيد كلمة السر', 'إعادة كلمة المرور'],
    },
    words: [
      'confirm password', 'password confirm', 'password confirmation', 'repassword', 're password', 'cpassword', 'confirmpassword', 'password 2',
      'pwd 2', 'repwd', 're pwd', 'confirm pwd', 'pwd confirm', 'password again', 'repeat password', 'password repeat', 'retype password', 'rpassword',
      'verify password', 'password check', 'check password', 'confirm', 'confirmation',
    ],
  },
  verification_code: {
    phrases: {
      en: ['verification code', 'verify code', 'code', 'sms code', 'email code', 'one-time code', 'one time password', 'otp', 'confirmation code', 'activation code', 'security code sent', 'enter the code'],
      zh: ['验证码', '短信验证码', '邮箱验证码', '手机验证码', '动态码', '校验码', '邮件验证码', '动态验证码'],
      vi: ['mã xác minh', 'mã xác nhận', 'mã xác thực', 'mã otp', 'mã kích hoạt', 'mã sms'],
      es: ['código', 'código de verificación', 'código de confirmación', 'código sms', 'código de seguridad enviado'],
      pt: ['código', 'código de verificação', 'código de confirmação', 'código sms', 'código de ativação'],
      ru: ['код', 'код подтверждения', 'код из смс', 'проверочный код', 'код из письма', 'смс код'],
      th: ['รหัสยืนยัน', 'รหัส otp', 'otp', 'รหัสยืนยันตัวตน', 'รหัสจาก sms'],
      id: ['kode', 'kode verifikasi', 'kode otp', 'kode konfirmasi', 'kode sms'],
      tr: ['kod', 'doğrulama kodu', 'onay kodu', 'sms kodu', 'güvenlik kodu'],
      ar: ['رمز التحقق', 'كود التحقق', 'رمز التأكيد', 'الرمز', 'رمز', 'كود'],
    },
    words: [
      'code', 'verify code', 'verification code', 'verifycode', 'vcode', 'v code', 'sms code', 'smscode', 'email code', 'mail code', 'otp', 'auth code',
      'valid code', 'validate code', 'check code', 'checkcode', 'mobile code', 'phone code', 'yzm', 'sms', 'verification', 'confirm code', 'activation code', 'one time code',
    ],
  },
  captcha: {
    phrases: {
      en: ['captcha', 'image code', 'picture code', 'graphic code', 'characters in the image', 'type the characters', 'i m not a robot'],
      zh: ['图形验证码', '图片验证码', '人机验证', '图形码', '图片码', '图形验证', '看不清', '点击刷新'],
      vi: ['mã captcha', 'captcha', 'mã hình ảnh', 'mã xác nhận hình ảnh', 'mã bảo mật hình'],
      es: ['captcha', 'código de la imagen', 'caracteres de la imagen', 'no soy un robot'],
      pt: ['captcha', 'código da imagem', 'caracteres da imagem', 'não sou um robô'],
      ru: ['капча', 'код с картинки', 'символы с картинки', 'код на картинке', 'я не робот'],
      th: ['แคปช่า', 'captcha', 'รหัสภาพ', 'ตัวอักษรในภาพ', 'ฉันไม่ใช่โปรแกรมอัตโนมัติ'],
      id: ['captcha', 'kode gambar', 'karakter pada gambar', 'saya bukan robot'],
      tr: ['captcha', 'resimdeki kod', 'resimdeki karakterler', 'ben robot değilim', 'güvenlik resmi'],
      ar: ['رمز الصورة', 'الكابتشا', 'كابتشا', 'لست روبوت', 'الأحرف في الصورة'],
    },
    words: ['captcha', 'recaptcha', 'hcaptcha', 'turnstile', 'cf turnstile', 'cf turnstile response', 'g recaptcha response', 'h captcha response', 'kaptcha', 'img code', 'imgcode', 'image code', 'pic code', 'piccode', 'graphic code', 'verify img', 'captcha code', 'geetest'],
  },
  phone: {
    phrases: {
      en: ['phone', 'phone number', 'mobile', 'mobile number', 'mobile phone', 'telephone', 'cell phone', 'whatsapp number'],
      zh: ['手机号', '手机号码', '手机', '电话', '电话号码', '联系电话', '手机号码'],
      vi: ['số điện thoại', 'điện thoại', 'sđt', 'số di động'],
      es: ['teléfono', 'número de teléfono', 'celular', 'móvil', 'número de celular', 'número de móvil'],
      pt: ['telefone', 'celular', 'número de telefone', 'número de celular', 'whatsapp'],
      ru: ['телефон', 'номер телефона', 'мобильный телефон', 'мобильный'],
      th: ['เบอร์โทรศัพท์', 'เบอร์โทร', 'หมายเลขโทรศัพท์', 'เบอร์มือถือ', 'โทรศัพท์มือถือ', 'เบอร์'],
      id: ['nomor telepon', 'telepon', 'nomor hp', 'no hp', 'nomor ponsel', 'ponsel', 'nomor whatsapp'],
      tr: ['telefon', 'telefon numarası', 'cep telefonu', 'gsm', 'cep no'],
      ar: ['رقم الهاتف', 'الهاتف', 'رقم الجوال', 'الجوال', 'رقم الموبايل', 'الموبايل', 'هاتف'],
    },
    words: ['phone', 'tel', 'mobile', 'telephone', 'cellphone', 'cell', 'mobile phone', 'mobilephone', 'phone number', 'phonenumber', 'phone no', 'mobile no', 'msisdn', 'shouji', 'sjh', 'whatsapp'],
  },
  username: {
    phrases: {
      en: ['username', 'user name', 'user id', 'login', 'login name', 'nickname', 'account name', 'account'],
      zh: ['用户名', '账号', '账户名', '登录账号', '昵称', '会员账号', '用户账号'],
      vi: ['tên đăng nhập', 'tên người dùng', 'tài khoản', 'biệt danh'],
      es: ['nombre de usuario', 'usuario', 'apodo'],
      pt: ['nome de usuário', 'usuário', 'apelido', 'nome de utilizador'],
      ru: ['имя пользователя', 'логин', 'никнейм', 'ник'],
      th: ['ชื่อผู้ใช้', 'ชื่อบัญชี', 'บัญชีผู้ใช้'],
      id: ['nama pengguna', 'username', 'nama akun'],
      tr: ['kullanıcı adı', 'takma ad', 'hesap adı'],
      ar: ['اسم المستخدم', 'اسم الحساب'],
    },
    words: ['username', 'user name', 'login', 'login name', 'loginname', 'account', 'user id', 'userid', 'nickname', 'nick', 'uname', 'user'],
  },
  first_name: {
    phrases: {
      en: ['first name', 'given name', 'forename'],
      zh: ['名字', '名'],
      vi: ['tên', 'tên riêng'],
      es: ['nombre', 'nombres', 'primer nombre'],
      pt: ['primeiro nome', 'prenome'],
      ru: ['имя'],
      th: ['ชื่อจริง', 'ชื่อ'],
      id: ['nama depan'],
      tr: ['ad', 'adınız', 'isim'],
      ar: ['الاسم الأول'],
    },
    words: ['first name', 'firstname', 'fname', 'given name', 'givenname', 'forename'],
  },
  last_name: {
    phrases: {
      en: ['last name', 'surname', 'family name'],
      zh: ['姓', '姓氏'],
      vi: ['họ', 'họ của bạn'],
      es: ['apellido', 'apellidos'],
      pt: ['sobrenome', 'apelido de família', 'último nome'],
      ru: ['фамилия'],
      th: ['นามสกุล'],
      id: ['nama belakang'],
      tr: ['soyad', 'soyadı', 'soyadınız'],
      ar: ['اسم العائلة', 'الاسم الأخير', 'اللقب'],
    },
    words: ['last name', 'lastname', 'lname', 'surname', 'family name', 'familyname'],
  },
  full_name: {
    phrases: {
      en: ['name', 'full name', 'your name', 'real name'],
      zh: ['姓名', '真实姓名', '全名'],
      vi: ['họ và tên', 'họ tên', 'tên đầy đủ'],
      es: ['nombre completo', 'nombre y apellidos'],
      pt: ['nome', 'nome completo'],
      ru: ['фио', 'полное имя', 'имя и фамилия'],
      th: ['ชื่อ นามสกุล', 'ชื่อ-นามสกุล', 'ชื่อเต็ม'],
      id: ['nama', 'nama lengkap'],
      tr: ['ad soyad', 'adınız soyadınız', 'tam ad'],
      ar: ['الاسم', 'الاسم الكامل', 'الاسم بالكامل'],
    },
    words: ['name', 'full name', 'fullname', 'real name', 'realname', 'your name'],
  },
  birth_date: {
    phrases: {
      en: ['date of birth', 'birthday', 'birth date', 'dob'],
      zh: ['出生日期', '生日'],
      vi: ['ngày sinh'],
      es: ['fecha de nacimiento'],
      pt: ['data de nascimento'],
      ru: ['дата рождения', 'день рождения'],
      th: ['วันเกิด', 'วันเดือนปีเกิด'],
      id: ['tanggal lahir'],
      tr: ['doğum tarihi'],
      ar: ['تاريخ الميلاد'],
    },
    words: ['birthday', 'birth date', 'birthdate', 'date of birth', 'dob', 'bday', 'birth'],
  },
  address_line: {
    phrases: {
      en: ['address', 'street address', 'street', 'address line'],
      zh: ['地址', '详细地址', '街道'],
      vi: ['địa chỉ'],
      es: ['dirección', 'calle'],
      pt: ['endereço', 'rua'],
      ru: ['адрес', 'улица'],
      th: ['ที่อยู่'],
      id: ['alamat'],
      tr: ['adres'],
      ar: ['العنوان'],
    },
    words: ['address', 'street', 'address 1', 'address line', 'addr', 'street address'],
  },
  city: {
    phrases: { en: ['city', 'town'], zh: ['城市'], vi: ['thành phố'], es: ['ciudad'], pt: ['cidade'], ru: ['город'], th: ['เมือง', 'จังหวัด'], id: ['kota'], tr: ['şehir', 'il'], ar: ['المدينة'] },
    words: ['city', 'town', 'locality'],
  },
  postcode: {
    phrases: {
      en: ['postcode', 'postal code', 'zip', 'zip code'],
      zh: ['邮编', '邮政编码'],
      vi: ['mã bưu điện', 'mã bưu chính'],
      es: ['código postal'],
      pt: ['cep', 'código postal'],
      ru: ['почтовый индекс', 'индекс'],
      th: ['รหัสไปรษณีย์'],
      id: ['kode pos'],
      tr: ['posta kodu'],
      ar: ['الرمز البريدي'],
    },
    words: ['postcode', 'post code', 'postal code', 'postalcode', 'zip', 'zipcode', 'zip code'],
  },
  country: {
    phrases: { en: ['country', 'country or region'], zh: ['国家', '国家地区', '国家/地区'], vi: ['quốc gia'], es: ['país'], pt: ['país'], ru: ['страна'], th: ['ประเทศ'], id: ['negara'], tr: ['ülke'], ar: ['الدولة', 'البلد'] },
    words: ['country', 'nation', 'country name'],
  },
  unknown: {
    phrases: {
      en: ['country code', 'area code', 'dial code', 'calling code', 'id number', 'passport', 'search', 'wallet address', 'withdrawal address', 'deposit address', 'ip address'],
      zh: ['区号', '国家代码', '身份证', '身份证号', '证件号码', '搜索', '钱包地址', '提币地址', '提现地址'],
      vi: ['mã vùng', 'mã quốc gia', 'số cmnd', 'cccd', 'địa chỉ ví'],
      es: ['código de país', 'código de área', 'prefijo', 'buscar', 'dni', 'dirección de billetera', 'dirección de la billetera'],
      pt: ['código do país', 'ddd', 'cpf', 'pesquisar', 'endereço da carteira'],
      ru: ['код страны', 'паспорт', 'поиск', 'адрес кошелька'],
      th: ['รหัสประเทศ', 'เลขบัตรประชาชน', 'ค้นหา', 'ที่อยู่กระเป๋าเงิน'],
      id: ['kode negara', 'nik', 'cari', 'alamat dompet'],
      tr: ['ülke kodu', 'alan kodu', 'tc kimlik', 'ara', 'cüzdan adresi'],
      ar: ['رمز الدولة', 'رقم الهوية', 'بحث', 'عنوان المحفظة'],
    },
    words: ['country code', 'area code', 'dial code', 'calling code', 'countrycode', 'areacode', 'id number', 'id card', 'idcard', 'passport', 'search', 'keyword', 'q', 'wallet', 'wallet address', 'walletaddress', 'withdraw address'],
  },
};

/**
 * An invitation, referral or promotion code: a field the persona leaves empty whatever else its text
 * says (a code field would otherwise be typed into).
 */
export const NOT_FOR_THE_PERSONA: FieldWords = {
  phrases: {
    en: ['invite code', 'invitation code', 'referral code', 'referral', 'referrer', 'promo code', 'promotion code', 'coupon', 'voucher', 'bonus code', 'agent code', 'invited by'],
    zh: ['邀请码', '推荐码', '推荐人', '邀请人', '优惠码', '推广码', '代理码', '邀请链接'],
    vi: ['mã giới thiệu', 'mã mời', 'người giới thiệu', 'mã khuyến mãi'],
    es: ['código de invitación', 'código de referido', 'código promocional', 'cupón', 'referido'],
    pt: ['código de convite', 'código de indicação', 'código promocional', 'cupom', 'indicação'],
    ru: ['код приглашения', 'пригласительный код', 'реферальный код', 'промокод', 'промо код'],
    th: ['รหัสแนะนำ', 'รหัสเชิญ', 'ผู้แนะนำ', 'รหัสโปรโมชั่น', 'คูปอง'],
    id: ['kode referal', 'kode undangan', 'kode promo', 'kode referensi', 'kupon'],
    tr: ['davet kodu', 'referans kodu', 'promosyon kodu', 'kupon', 'referans kodunuz'],
    ar: ['رمز الدعوة', 'رمز الإحالة', 'كود الدعوة', 'رمز ترويجي', 'كوبون', 'الإحالة'],
  },
  words: ['invite', 'invitation', 'invite code', 'invitecode', 'referral', 'referrer', 'ref code', 'refcode', 'ref', 'recommend', 'recommend code', 'promo', 'promo code', 'promocode', 'coupon', 'voucher', 'agent', 'agent code', 'inviter', 'yqm', 'tjm'],
};

/** A checkbox with these is the terms (and privacy) agreement, even beside marketing words. */
export const TERMS: FieldWords = {
  phrases: {
    en: ['terms', 'terms of service', 'terms and conditions', 'terms of use', 'conditions', 'privacy policy', 'user agreement', 'i have read and agree', 'i am over 18', 'i am 18'],
    zh: ['条款', '服务条款', '用户协议', '协议', '隐私政策', '隐私条款', '我已阅读并同意', '已阅读并同意', '年满18', '已满18', '服务协议'],
    vi: ['điều khoản', 'điều kiện', 'chính sách bảo mật', 'thỏa thuận'],
    es: ['términos', 'condiciones', 'política de privacidad', 'he leído y acepto'],
    pt: ['termos', 'condições', 'política de privacidade', 'li e aceito', 'li e concordo'],
    ru: ['условия', 'соглашение', 'политика конфиденциальности', 'оферта', 'правила'],
    th: ['เงื่อนไข', 'ข้อกำหนด', 'นโยบายความเป็นส่วนตัว', 'ข้อตกลง'],
    id: ['syarat', 'ketentuan', 'kebijakan privasi', 'perjanjian'],
    tr: ['koşullar', 'şartlar', 'sözleşme', 'gizlilik politikası', 'kvkk', 'aydınlatma metni'],
    ar: ['الشروط', 'الأحكام', 'سياسة الخصوصية', 'اتفاقية'],
  },
  words: ['terms', 'tos', 'agreement', 'agree terms', 'accept terms', 'policy', 'privacy', 'protocol', 'xieyi', 'legal', 'conditions', 'age'],
};

/** Agreement words without the terms: a terms box, unless marketing or "remember me" words say otherwise. */
export const AGREEMENT: FieldWords = {
  phrases: {
    en: ['agree', 'i agree', 'accept', 'i accept', 'i have read'],
    zh: ['同意', '我同意', '已阅读', '我已阅读', '接受'],
    vi: ['đồng ý', 'tôi đồng ý', 'chấp nhận', 'tôi đã đọc'],
    es: ['acepto', 'aceptar', 'estoy de acuerdo', 'he leído'],
    pt: ['concordo', 'aceito', 'aceitar', 'li'],
    ru: ['согласен', 'согласна', 'принимаю', 'я прочитал'],
    th: ['ยอมรับ', 'ยินยอม', 'ตกลง', 'ข้าพเจ้าได้อ่าน'],
    id: ['setuju', 'saya setuju', 'menerima', 'saya telah membaca'],
    tr: ['kabul ediyorum', 'onaylıyorum', 'okudum', 'kabul'],
    ar: ['أوافق', 'موافق', 'أقبل', 'قرأت'],
  },
  words: ['agree', 'accept', 'consent', 'agreed', 'read'],
};

/** Checkboxes the persona leaves as they are: marketing, newsletters, "remember me". */
export const OPT_INS: FieldWords = {
  phrases: {
    en: ['newsletter', 'marketing', 'promotional', 'promotions', 'special offers', 'remember me', 'keep me signed in', 'stay signed in', 'subscribe'],
    zh: ['记住我', '记住密码', '自动登录', '订阅', '营销', '优惠信息', '推广信息'],
    vi: ['ghi nhớ', 'nhớ mật khẩu', 'nhận tin', 'khuyến mãi', 'đăng ký nhận'],
    es: ['recordarme', 'boletín', 'promociones', 'ofertas', 'suscribirme', 'publicidad'],
    pt: ['lembrar', 'lembrar de mim', 'manter conectado', 'novidades', 'promoções', 'ofertas', 'newsletter'],
    ru: ['запомнить меня', 'запомнить', 'рассылка', 'рассылку', 'акции', 'новости'],
    th: ['จดจำฉัน', 'จำฉันไว้', 'ข่าวสาร', 'โปรโมชั่น'],
    id: ['ingat saya', 'buletin', 'promosi', 'penawaran'],
    tr: ['beni hatırla', 'bülten', 'kampanya', 'kampanyalar', 'ticari ileti'],
    ar: ['تذكرني', 'النشرة', 'العروض', 'الإشتراك في'],
  },
  words: ['remember', 'remember me', 'rememberme', 'newsletter', 'marketing', 'subscribe', 'promo', 'promotions', 'offers', 'keep signed', 'stay signed'],
};

/** A code that says it was sent (SMS, e-mail): not a captcha, whatever the field is named (smsCaptcha). */
export const SENT_CODE_HINTS: FieldWords = {
  phrases: {
    en: ['sms', 'text message', 'email', 'e-mail', 'sent to', 'phone', 'mobile'],
    zh: ['短信', '手机', '邮箱', '邮件', '动态'],
    vi: ['sms', 'tin nhắn', 'email', 'điện thoại'],
    es: ['sms', 'correo', 'teléfono', 'enviado'],
    pt: ['sms', 'e-mail', 'celular', 'enviado'],
    ru: ['смс', 'sms', 'почта', 'почту', 'письма', 'телефон'],
    th: ['sms', 'เอสเอ็มเอส', 'อีเมล', 'โทรศัพท์'],
    id: ['sms', 'email', 'telepon', 'dikirim'],
    tr: ['sms', 'e-posta', 'telefon', 'gönderilen'],
    ar: ['الرسائل القصيرة', 'رسالة نصية', 'البريد', 'الهاتف'],
  },
  words: ['sms', 'email', 'mail', 'mobile', 'phone', 'tel', 'otp', 'msg'],
};

/** A code read off a picture: a captcha, even when the page only says "验证码" or "code". */
export const IMAGE_HINTS: FieldWords = {
  phrases: {
    en: ['image', 'picture', 'graphic', 'characters shown'],
    zh: ['图形', '图片', '看不清', '换一张'],
    vi: ['hình', 'hình ảnh', 'ảnh'],
    es: ['imagen'],
    pt: ['imagem'],
    ru: ['картинки', 'картинке', 'изображение', 'изображения'],
    th: ['ภาพ', 'รูปภาพ'],
    id: ['gambar'],
    tr: ['resim', 'resimdeki', 'görsel'],
    ar: ['الصورة', 'صورة'],
  },
  words: ['img', 'image', 'pic', 'picture', 'graphic', 'graph'],
};

/** On a password field, any of these makes it the confirmation (Confirm, 再次输入, Nhập lại, Повторите). */
export const CONFIRMATION_HINTS: FieldWords = {
  phrases: {
    en: ['confirm', 'confirmation', 'repeat', 'again', 're-enter', 'retype', 're-type'],
    zh: ['确认', '再次', '重复', '再输入一次'],
    vi: ['nhập lại', 'xác nhận', 'nhắc lại'],
    es: ['confirmar', 'confirme', 'repetir', 'repita', 'de nuevo', 'otra vez'],
    pt: ['confirmar', 'confirme', 'confirmação', 'repetir', 'repita', 'novamente'],
    ru: ['повторите', 'подтвердите', 'подтверждение', 'повтор', 'еще раз'],
    th: ['ยืนยัน', 'อีกครั้ง'],
    id: ['konfirmasi', 'ulangi', 'ketik ulang', 'lagi'],
    tr: ['tekrar', 'onayla', 'onay', 'yeniden'],
    ar: ['تأكيد', 'أعد', 'إعادة', 'مرة أخرى'],
  },
  words: ['confirm', 'confirmation', 'repeat', 'again', 're', 'retype', 'rpt', 'cfm', '2', 'check', 'verify', 'confirmpassword', 'repassword', 'cpassword', 'repwd', 'rpassword'],
};
