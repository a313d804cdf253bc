// The words that place a page or a report in the scam taxonomy: per taxonomy node, phrases in every
// language the funnel agent reads (VOCABULARY_LANGUAGES). A phrase is evidence, not proof: each match
// adds a small weight to its node (domain/classification/scam-classification.ts caps the sum), so a
// word shared by honest sites ("deposit", "login") never decides alone.
import type { Phrases } from '../investigations/funnel-vocabulary-matching';

export interface NodeVocabulary {
  /** A path of domain/analytics/scam-taxonomy.ts (checked by the unit tests). */
  path: string;
  phrases: Phrases;
}

export const CLASSIFICATION_VOCABULARY: readonly NodeVocabulary[] = [
  {
    path: 'investment/crypto/fake-exchange',
    phrases: {
      en: ['crypto exchange', 'spot trading', 'futures trading', 'contract trading', 'trading pair', 'order book', 'withdraw to wallet', 'usdt deposit', 'deposit address', 'market price', 'leverage'],
      zh: ['交易所', '币币交易', '合约交易', '现货交易', '充币', '提币', '充值地址', '交易对', '杠杆'],
      vi: ['sàn giao dịch', 'giao dịch hợp đồng', 'nạp tiền', 'rút tiền', 'địa chỉ nạp', 'đòn bẩy'],
      es: ['exchange de criptomonedas', 'comercio de futuros', 'dirección de depósito', 'apalancamiento', 'par de trading'],
      pt: ['corretora de criptomoedas', 'negociação de futuros', 'endereço de depósito', 'alavancagem', 'par de negociação'],
      ru: ['криптобиржа', 'фьючерсная торговля', 'адрес пополнения', 'кредитное плечо', 'торговая пара', 'пополнить'],
      th: ['แลกเปลี่ยนคริปโต', 'ที่อยู่ฝากเงิน', 'ฝากเงิน', 'ถอนเงิน', 'เลเวอเรจ'],
      id: ['bursa kripto', 'perdagangan berjangka', 'alamat deposit', 'tarik dana', 'pasangan perdagangan'],
      tr: ['kripto borsası', 'vadeli işlem', 'yatırma adresi', 'kaldıraç', 'işlem çifti'],
      ar: ['منصة تداول', 'تداول العقود', 'عنوان الإيداع', 'الرافعة المالية', 'زوج التداول'],
    },
  },
  {
    path: 'investment/crypto/pig-butchering',
    phrases: {
      en: ['my uncle', 'insider', 'guaranteed profit', 'trading mentor', 'vip signal', 'mentor', 'inside information', 'daily return'],
      zh: ['导师', '带单', '内幕消息', '稳赚不赔', '高回报', '日收益'],
      vi: ['thầy hướng dẫn', 'lợi nhuận đảm bảo', 'tín hiệu vip', 'lợi nhuận hàng ngày'],
      es: ['mentor de trading', 'ganancia garantizada', 'información privilegiada', 'rendimiento diario'],
      pt: ['mentor de trading', 'lucro garantido', 'informação privilegiada', 'retorno diário'],
      ru: ['наставник', 'гарантированная прибыль', 'инсайдерская информация', 'ежедневный доход'],
      th: ['อาจารย์เทรด', 'กำไรรับประกัน', 'ข้อมูลวงใน', 'ผลตอบแทนรายวัน'],
      id: ['mentor trading', 'keuntungan dijamin', 'informasi orang dalam', 'profit harian'],
      tr: ['yatırım danışmanı', 'garantili kazanç', 'içeriden bilgi', 'günlük getiri'],
      ar: ['مرشد التداول', 'ربح مضمون', 'معلومات داخلية', 'عائد يومي'],
    },
  },
  {
    path: 'investment/crypto/mining-pool',
    phrases: {
      en: ['mining pool', 'liquidity mining', 'staking rewards', 'cloud mining', 'hashrate', 'apy'],
      zh: ['矿池', '流动性挖矿', '质押收益', '云挖矿', '算力'],
      vi: ['đào coin', 'khai thác thanh khoản', 'phần thưởng staking', 'đào trên mây'],
      es: ['minería en la nube', 'pool de minería', 'recompensas de staking'],
      pt: ['mineração em nuvem', 'pool de mineração', 'recompensas de staking'],
      ru: ['облачный майнинг', 'майнинг пул', 'награды за стейкинг'],
      th: ['ขุดคลาวด์', 'พูลขุด', 'รางวัลสเตกกิ้ง'],
      id: ['penambangan awan', 'kolam penambangan', 'hadiah staking'],
      tr: ['bulut madenciliği', 'madencilik havuzu', 'staking ödülleri'],
      ar: ['التعدين السحابي', 'مجمع التعدين', 'مكافآت التخزين'],
    },
  },
  {
    path: 'investment/forex',
    phrases: {
      en: ['forex', 'binary options', 'cfd trading', 'currency pairs', 'metatrader'],
      zh: ['外汇', '二元期权', '差价合约'],
      vi: ['ngoại hối', 'quyền chọn nhị phân'],
      es: ['opciones binarias', 'divisas'],
      pt: ['opções binárias', 'câmbio'],
      ru: ['форекс', 'бинарные опционы'],
      th: ['ฟอเร็กซ์', 'ไบนารี่ออปชั่น'],
      id: ['valas', 'opsi biner'],
      tr: ['döviz', 'ikili opsiyon'],
      ar: ['الفوركس', 'الخيارات الثنائية'],
    },
  },
  {
    path: 'romance',
    phrases: {
      en: ['my love', 'my darling', 'soulmate', 'dating', 'lonely', 'find your match', 'meet singles'],
      zh: ['交友', '亲爱的', '约会', '相亲', '单身'],
      vi: ['hẹn hò', 'em yêu', 'người yêu', 'độc thân'],
      es: ['mi amor', 'citas', 'alma gemela', 'solteros'],
      pt: ['meu amor', 'namoro', 'alma gêmea', 'solteiros'],
      ru: ['знакомства', 'любимая', 'любимый', 'родственная душа'],
      th: ['หาคู่', 'ที่รัก', 'คนโสด'],
      id: ['kencan', 'sayangku', 'belahan jiwa', 'cari jodoh'],
      tr: ['aşkım', 'arkadaşlık', 'ruh eşi', 'bekarlar'],
      ar: ['حبيبتي', 'حبيبي', 'التعارف', 'توأم الروح'],
    },
  },
  {
    path: 'advance-fee/recovery',
    phrases: {
      en: ['recover your funds', 'recover your lost funds', 'lost funds', 'recovery fee', 'fund recovery', 'get your money back', 'recover lost crypto', 'scam victims', 'chargeback'],
      zh: ['追回资金', '资金追回', '挽回损失', '被骗资金'],
      vi: ['lấy lại tiền', 'thu hồi tiền', 'nạn nhân lừa đảo'],
      es: ['recuperar su dinero', 'recuperación de fondos', 'víctimas de estafa'],
      pt: ['recuperar seu dinheiro', 'recuperação de fundos', 'vítimas de golpe'],
      ru: ['вернуть деньги', 'возврат средств', 'жертвы мошенников'],
      th: ['กู้คืนเงิน', 'ได้เงินคืน', 'เหยื่อมิจฉาชีพ'],
      id: ['pemulihan dana', 'uang kembali', 'korban penipuan'],
      tr: ['paranızı geri alın', 'fon kurtarma', 'dolandırıcılık mağdurları'],
      ar: ['استرداد أموالك', 'استرجاع الأموال', 'ضحايا الاحتيال'],
    },
  },
  {
    path: 'shopping/fake-store',
    phrases: {
      en: ['add to cart', 'checkout', 'free shipping', 'clearance sale', 'order now', 'in stock'],
      zh: ['加入购物车', '立即购买', '包邮', '清仓'],
      vi: ['thêm vào giỏ', 'mua ngay', 'miễn phí vận chuyển', 'xả kho'],
      es: ['añadir al carrito', 'envío gratis', 'comprar ahora', 'liquidación'],
      pt: ['adicionar ao carrinho', 'frete grátis', 'comprar agora', 'liquidação'],
      ru: ['в корзину', 'бесплатная доставка', 'купить сейчас', 'распродажа'],
      th: ['ใส่ตะกร้า', 'ส่งฟรี', 'ซื้อเลย', 'ลดล้างสต็อก'],
      id: ['tambah ke keranjang', 'gratis ongkir', 'beli sekarang', 'cuci gudang'],
      tr: ['sepete ekle', 'ücretsiz kargo', 'hemen al', 'tasfiye'],
      ar: ['أضف إلى السلة', 'شحن مجاني', 'اشتر الآن', 'تصفية'],
    },
  },
  {
    path: 'phishing/credential',
    phrases: {
      en: ['verify your account', 'account suspended', 'confirm your identity', 'unusual activity', 'update your payment', 'your account will be locked'],
      zh: ['验证您的账户', '账户已冻结', '异常登录', '确认身份'],
      vi: ['xác minh tài khoản', 'tài khoản bị khóa', 'hoạt động bất thường'],
      es: ['verifique su cuenta', 'cuenta suspendida', 'actividad inusual', 'confirme su identidad'],
      pt: ['verifique sua conta', 'conta suspensa', 'atividade incomum', 'confirme sua identidade'],
      ru: ['подтвердите аккаунт', 'аккаунт заблокирован', 'подозрительная активность'],
      th: ['ยืนยันบัญชี', 'บัญชีถูกระงับ', 'กิจกรรมผิดปกติ'],
      id: ['verifikasi akun anda', 'akun ditangguhkan', 'aktivitas tidak biasa'],
      tr: ['hesabınızı doğrulayın', 'hesap askıya alındı', 'olağandışı etkinlik'],
      ar: ['تحقق من حسابك', 'تم تعليق الحساب', 'نشاط غير عادي'],
    },
  },
  {
    path: 'advance-fee/lottery',
    phrases: {
      en: ['giveaway', 'receive twice as much', 'receive double', 'you have won', 'claim your prize', 'airdrop', 'lucky draw', 'double your'],
      zh: ['空投', '中奖', '领取奖品', '抽奖', '赠送'],
      vi: ['quà tặng', 'bạn đã trúng', 'nhận thưởng', 'rút thăm may mắn'],
      es: ['sorteo', 'ha ganado', 'reclame su premio'],
      pt: ['sorteio', 'você ganhou', 'resgate seu prêmio'],
      ru: ['розыгрыш', 'вы выиграли', 'получите приз', 'аирдроп'],
      th: ['แจกฟรี', 'คุณได้รับรางวัล', 'รับรางวัล', 'ลุ้นรางวัล'],
      id: ['hadiah gratis', 'anda menang', 'klaim hadiah', 'undian'],
      tr: ['çekiliş', 'kazandınız', 'ödülünüzü alın'],
      ar: ['هدية مجانية', 'لقد فزت', 'اطلب جائزتك', 'سحب'],
    },
  },
  {
    path: 'employment/task-scam',
    phrases: {
      en: ['complete tasks', 'daily tasks', 'earn commission', 'order grabbing', 'like and earn', 'work from home'],
      zh: ['刷单', '抢单', '做任务', '佣金', '兼职'],
      vi: ['làm nhiệm vụ', 'nhận hoa hồng', 'việc làm tại nhà', 'chốt đơn'],
      es: ['completar tareas', 'ganar comisión', 'trabajo desde casa'],
      pt: ['completar tarefas', 'ganhar comissão', 'trabalho em casa'],
      ru: ['выполняйте задания', 'заработок на заданиях', 'работа на дому', 'комиссия'],
      th: ['ทำภารกิจ', 'รับค่าคอมมิชชั่น', 'งานออนไลน์ทำที่บ้าน'],
      id: ['selesaikan tugas', 'dapatkan komisi', 'kerja dari rumah'],
      tr: ['görevleri tamamla', 'komisyon kazan', 'evden çalış'],
      ar: ['أكمل المهام', 'اكسب عمولة', 'العمل من المنزل'],
    },
  },
];
