import type { Language } from '@gatehouse/schemas';
import { html, type SafeHtml } from '../shared/html.ts';

/**
 * The invitation email in every server language. `{organization}` and `{date}` are filled in by
 * {@link renderInvitation}; every value is HTML-escaped in the HTML part.
 */
type InvitationTexts = {
  subject: string;
  intro: string;
  invitedBy: string;
  action: string;
  expires: string;
  ignore: string;
};

const invitationTexts: Record<Language, InvitationTexts> = {
  en: {
    subject: 'Invitation to join {organization}',
    intro: 'You have been invited to join {organization}.',
    invitedBy: 'Invited by {inviter}.',
    action: 'Accept the invitation',
    expires: 'This invitation expires on {date}.',
    ignore: 'If you were not expecting this invitation, you can ignore this email.',
  },
  ar: {
    subject: 'دعوة للانضمام إلى {organization}',
    intro: 'لقد تمت دعوتك للانضمام إلى {organization}.',
    invitedBy: 'الدعوة من {inviter}.',
    action: 'قبول الدعوة',
    expires: 'تنتهي صلاحية هذه الدعوة في {date}.',
    ignore: 'إذا لم تكن تتوقع هذه الدعوة، يمكنك تجاهل هذه الرسالة.',
  },
  de: {
    subject: 'Einladung zu {organization}',
    intro: 'Sie wurden eingeladen, {organization} beizutreten.',
    invitedBy: 'Eingeladen von {inviter}.',
    action: 'Einladung annehmen',
    expires: 'Diese Einladung läuft am {date} ab.',
    ignore: 'Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  },
  es: {
    subject: 'Invitación para unirte a {organization}',
    intro: 'Te han invitado a unirte a {organization}.',
    invitedBy: 'Invitación de {inviter}.',
    action: 'Aceptar la invitación',
    expires: 'Esta invitación caduca el {date}.',
    ignore: 'Si no esperabas esta invitación, puedes ignorar este correo.',
  },
  fr: {
    subject: 'Invitation à rejoindre {organization}',
    intro: 'Vous avez été invité à rejoindre {organization}.',
    invitedBy: 'Invitation de {inviter}.',
    action: 'Accepter l’invitation',
    expires: 'Cette invitation expire le {date}.',
    ignore: 'Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
  },
  it: {
    subject: 'Invito a unirti a {organization}',
    intro: 'Sei stato invitato a unirti a {organization}.',
    invitedBy: 'Invito da parte di {inviter}.',
    action: 'Accetta l’invito',
    expires: 'Questo invito scade il {date}.',
    ignore: 'Se non ti aspettavi questo invito, puoi ignorare questa email.',
  },
  ja: {
    subject: '{organization} への招待',
    intro: '{organization} への参加に招待されました。',
    invitedBy: '招待者: {inviter}',
    action: '招待を承諾する',
    expires: 'この招待の有効期限は {date} です。',
    ignore: 'この招待に心当たりがない場合は、このメールを無視してください。',
  },
  ko: {
    subject: '{organization} 참여 초대',
    intro: '{organization}에 참여하도록 초대되었습니다.',
    invitedBy: '초대한 사람: {inviter}',
    action: '초대 수락',
    expires: '이 초대는 {date}에 만료됩니다.',
    ignore: '이 초대를 예상하지 않으셨다면 이 이메일을 무시하셔도 됩니다.',
  },
  'pl-PL': {
    subject: 'Zaproszenie do {organization}',
    intro: 'Zaproszono Cię do dołączenia do {organization}.',
    invitedBy: 'Zaprasza: {inviter}.',
    action: 'Przyjmij zaproszenie',
    expires: 'To zaproszenie wygasa {date}.',
    ignore: 'Jeśli nie spodziewałeś się tego zaproszenia, zignoruj tę wiadomość.',
  },
  'pt-BR': {
    subject: 'Convite para participar de {organization}',
    intro: 'Você foi convidado para participar de {organization}.',
    invitedBy: 'Convite de {inviter}.',
    action: 'Aceitar o convite',
    expires: 'Este convite expira em {date}.',
    ignore: 'Se você não esperava este convite, pode ignorar este e-mail.',
  },
  'pt-PT': {
    subject: 'Convite para se juntar a {organization}',
    intro: 'Foi convidado para se juntar a {organization}.',
    invitedBy: 'Convite de {inviter}.',
    action: 'Aceitar o convite',
    expires: 'Este convite expira a {date}.',
    ignore: 'Se não esperava este convite, pode ignorar este e-mail.',
  },
  ru: {
    subject: 'Приглашение в {organization}',
    intro: 'Вас пригласили присоединиться к {organization}.',
    invitedBy: 'Приглашение от {inviter}.',
    action: 'Принять приглашение',
    expires: 'Срок действия приглашения истекает {date}.',
    ignore: 'Если вы не ожидали этого приглашения, просто проигнорируйте это письмо.',
  },
  'tr-TR': {
    subject: '{organization} katılım daveti',
    intro: '{organization} kuruluşuna katılmaya davet edildiniz.',
    invitedBy: 'Davet eden: {inviter}.',
    action: 'Daveti kabul et',
    expires: 'Bu davetin süresi {date} tarihinde dolar.',
    ignore: 'Bu daveti beklemiyorsanız bu e-postayı yok sayabilirsiniz.',
  },
  'zh-CN': {
    subject: '邀请你加入 {organization}',
    intro: '你已受邀加入 {organization}。',
    invitedBy: '邀请人：{inviter}',
    action: '接受邀请',
    expires: '此邀请将于 {date} 过期。',
    ignore: '如果你没有预期收到此邀请，请忽略这封邮件。',
  },
  'zh-HK': {
    subject: '邀請你加入 {organization}',
    intro: '你已獲邀加入 {organization}。',
    invitedBy: '邀請人：{inviter}',
    action: '接受邀請',
    expires: '此邀請將於 {date} 到期。',
    ignore: '如果你沒有預期收到此邀請，請忽略這封電郵。',
  },
  'zh-TW': {
    subject: '邀請你加入 {organization}',
    intro: '你已受邀加入 {organization}。',
    invitedBy: '邀請人：{inviter}',
    action: '接受邀請',
    expires: '此邀請將於 {date} 到期。',
    ignore: '如果你沒有預期收到此邀請，請忽略這封郵件。',
  },
};

export const invitationLanguages = Object.keys(invitationTexts) as Language[];

export type RenderedEmail = { subject: string; text: string; html: string };

const PLACEHOLDER = /\{(\w+)\}/g;

/** The plain-text part: the template with its `{name}` placeholders filled in, nothing escaped. */
function fillText(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => (key in values ? (values[key] ?? '') : whole));
}

/** The HTML part: the same, the template's text and every value escaped (a split keeps `{name}` at odd indexes). */
function fillHtml(template: string, values: Record<string, string>): SafeHtml {
  const parts = template
    .split(PLACEHOLDER)
    .map((part, index) => (index % 2 === 0 ? part : part in values ? (values[part] ?? '') : `{${part}}`));
  return html`${parts}`;
}

/** The start of every HTML email, up to the opening body tag (emails allow inline style; pages do not). */
function emailHead(language: Language, subject: SafeHtml): SafeHtml {
  const dir = language === 'ar' ? 'rtl' : 'ltr';
  return html`<!doctype html>
<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328">`;
}

export type InvitationValues = {
  organization: string;
  inviter: string | undefined;
  link: string;
  expiresAt: number;
};

/** Subject, plain text and HTML of an invitation email in `language`. */
export function renderInvitation(language: Language, values: InvitationValues): RenderedEmail {
  const texts = invitationTexts[language];
  const date = `${new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
    values.expiresAt,
  )} UTC`;
  const fields = { organization: values.organization, inviter: values.inviter ?? '', date };
  const plain = (template: string) => fillText(template, fields);
  const filled = (template: string) => fillHtml(template, fields);
  const lines = [plain(texts.intro), values.inviter ? plain(texts.invitedBy) : undefined];
  const text = [
    ...lines.filter(Boolean),
    '',
    `${plain(texts.action)}: ${values.link}`,
    '',
    plain(texts.expires),
    plain(texts.ignore),
  ].join('\n');
  const htmlBody = html`${emailHead(language, filled(texts.subject))}
<p>${filled(texts.intro)}</p>
${values.inviter && html`<p>${filled(texts.invitedBy)}</p>`}
<p><a href="${values.link}" style="display:inline-block;padding:10px 16px;background:#5d34f2;color:#fff;border-radius:6px;text-decoration:none">${filled(texts.action)}</a></p>
<p style="color:#59636e">${filled(texts.expires)}<br>${filled(texts.ignore)}</p>
</body></html>`;
  return { subject: plain(texts.subject), text, html: htmlBody.toString() };
}

/** The forgot-password email: the code, how long it is valid, and what to do when it was not you. */
type ResetCodeTexts = { subject: string; intro: string; expires: string; ignore: string };

const resetCodeTexts: Record<Language, ResetCodeTexts> = {
  en: {
    subject: 'Your password reset code: {code}',
    intro: 'Use this code to reset your password:',
    expires: 'The code is valid for {minutes} minutes.',
    ignore: 'If you did not ask to reset your password, ignore this email; your password stays the same.',
  },
  ar: {
    subject: 'رمز إعادة تعيين كلمة المرور: {code}',
    intro: 'استخدم هذا الرمز لإعادة تعيين كلمة المرور:',
    expires: 'الرمز صالح لمدة {minutes} دقائق.',
    ignore: 'إذا لم تطلب إعادة تعيين كلمة المرور، فتجاهل هذه الرسالة؛ ستبقى كلمة المرور كما هي.',
  },
  de: {
    subject: 'Ihr Code zum Zurücksetzen des Passworts: {code}',
    intro: 'Mit diesem Code setzen Sie Ihr Passwort zurück:',
    expires: 'Der Code ist {minutes} Minuten gültig.',
    ignore:
      'Wenn Sie das Zurücksetzen nicht angefordert haben, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.',
  },
  es: {
    subject: 'Tu código para restablecer la contraseña: {code}',
    intro: 'Usa este código para restablecer tu contraseña:',
    expires: 'El código es válido durante {minutes} minutos.',
    ignore: 'Si no pediste restablecer tu contraseña, ignora este correo; tu contraseña no cambia.',
  },
  fr: {
    subject: 'Votre code de réinitialisation du mot de passe : {code}',
    intro: 'Utilisez ce code pour réinitialiser votre mot de passe :',
    expires: 'Le code est valable {minutes} minutes.',
    ignore:
      'Si vous n’avez pas demandé à réinitialiser votre mot de passe, ignorez cet e-mail ; votre mot de passe reste inchangé.',
  },
  it: {
    subject: 'Il tuo codice per reimpostare la password: {code}',
    intro: 'Usa questo codice per reimpostare la password:',
    expires: 'Il codice è valido per {minutes} minuti.',
    ignore: 'Se non hai chiesto di reimpostare la password, ignora questa email; la password resta invariata.',
  },
  ja: {
    subject: 'パスワード再設定コード: {code}',
    intro: '次のコードでパスワードを再設定してください:',
    expires: 'コードの有効期間は {minutes} 分です。',
    ignore: 'パスワードの再設定を依頼していない場合は、このメールを無視してください。パスワードは変更されません。',
  },
  ko: {
    subject: '비밀번호 재설정 코드: {code}',
    intro: '이 코드로 비밀번호를 재설정하세요:',
    expires: '코드는 {minutes}분 동안 유효합니다.',
    ignore: '비밀번호 재설정을 요청하지 않았다면 이 이메일을 무시하세요. 비밀번호는 변경되지 않습니다.',
  },
  'pl-PL': {
    subject: 'Kod do zresetowania hasła: {code}',
    intro: 'Użyj tego kodu, aby zresetować hasło:',
    expires: 'Kod jest ważny przez {minutes} minut.',
    ignore: 'Jeśli nie prosiłeś o zresetowanie hasła, zignoruj tę wiadomość; hasło pozostanie bez zmian.',
  },
  'pt-BR': {
    subject: 'Seu código para redefinir a senha: {code}',
    intro: 'Use este código para redefinir sua senha:',
    expires: 'O código é válido por {minutes} minutos.',
    ignore: 'Se você não pediu para redefinir a senha, ignore este e-mail; sua senha continua a mesma.',
  },
  'pt-PT': {
    subject: 'O seu código para repor a palavra-passe: {code}',
    intro: 'Utilize este código para repor a sua palavra-passe:',
    expires: 'O código é válido durante {minutes} minutos.',
    ignore: 'Se não pediu para repor a palavra-passe, ignore este e-mail; a sua palavra-passe mantém-se.',
  },
  ru: {
    subject: 'Код для сброса пароля: {code}',
    intro: 'Используйте этот код, чтобы сбросить пароль:',
    expires: 'Код действителен {minutes} минут.',
    ignore: 'Если вы не запрашивали сброс пароля, проигнорируйте это письмо; пароль останется прежним.',
  },
  'tr-TR': {
    subject: 'Parola sıfırlama kodunuz: {code}',
    intro: 'Parolanızı sıfırlamak için bu kodu kullanın:',
    expires: 'Kod {minutes} dakika geçerlidir.',
    ignore: 'Parola sıfırlama isteğinde bulunmadıysanız bu e-postayı yok sayın; parolanız değişmez.',
  },
  'zh-CN': {
    subject: '你的密码重置验证码：{code}',
    intro: '使用此验证码重置密码：',
    expires: '验证码在 {minutes} 分钟内有效。',
    ignore: '如果你没有申请重置密码，请忽略这封邮件，你的密码不会改变。',
  },
  'zh-HK': {
    subject: '你的密碼重設驗證碼：{code}',
    intro: '使用此驗證碼重設密碼：',
    expires: '驗證碼在 {minutes} 分鐘內有效。',
    ignore: '如果你沒有要求重設密碼，請忽略這封電郵，你的密碼不會改變。',
  },
  'zh-TW': {
    subject: '你的密碼重設驗證碼：{code}',
    intro: '使用此驗證碼重設密碼：',
    expires: '驗證碼在 {minutes} 分鐘內有效。',
    ignore: '如果你沒有要求重設密碼，請忽略這封郵件，你的密碼不會變更。',
  },
};

/** Subject, plain text and HTML of the forgot-password code email in `language`. */
export function renderPasswordResetCode(language: Language, values: { code: string; minutes: number }): RenderedEmail {
  const texts = resetCodeTexts[language];
  const fields = { code: values.code, minutes: String(values.minutes) };
  const plain = (template: string) => fillText(template, fields);
  const filled = (template: string) => fillHtml(template, fields);
  const text = [plain(texts.intro), '', values.code, '', plain(texts.expires), plain(texts.ignore)].join('\n');
  const htmlBody = html`${emailHead(language, filled(texts.subject))}
<p>${filled(texts.intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px" dir="ltr">${values.code}</p>
<p style="color:#59636e">${filled(texts.expires)}<br>${filled(texts.ignore)}</p>
</body></html>`;
  return { subject: plain(texts.subject), text, html: htmlBody.toString() };
}

type VerificationCodeTexts = {
  subject: string;
  register: string;
  signIn: string;
  /** An account proving its email address after sign-up (the 'me' API). */
  verifyEmail: string;
  expires: string;
  ignore: string;
};

const verificationCodeTexts: Record<Language, VerificationCodeTexts> = {
  ar: {
    subject: 'رمز التحقق: {code}',
    register: 'استخدم هذا الرمز لإكمال إنشاء حسابك:',
    signIn: 'استخدم هذا الرمز لتسجيل الدخول:',
    verifyEmail: 'استخدم هذا الرمز لتأكيد عنوان بريدك الإلكتروني:',
    expires: 'الرمز صالح لمدة {minutes} دقائق.',
    ignore: 'إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
  },
  de: {
    subject: 'Ihr Bestätigungscode: {code}',
    register: 'Mit diesem Code schließen Sie die Erstellung Ihres Kontos ab:',
    signIn: 'Mit diesem Code melden Sie sich an:',
    verifyEmail: 'Mit diesem Code bestätigen Sie Ihre E-Mail-Adresse:',
    expires: 'Der Code ist {minutes} Minuten gültig.',
    ignore: 'Wenn Sie diesen Code nicht angefordert haben, ignorieren Sie diese E-Mail.',
  },
  en: {
    subject: 'Your verification code: {code}',
    register: 'Use this code to finish creating your account:',
    signIn: 'Use this code to sign in:',
    verifyEmail: 'Use this code to confirm your email address:',
    expires: 'The code is valid for {minutes} minutes.',
    ignore: 'If you did not ask for this code, ignore this email.',
  },
  es: {
    subject: 'Tu código de verificación: {code}',
    register: 'Usa este código para terminar de crear tu cuenta:',
    signIn: 'Usa este código para iniciar sesión:',
    verifyEmail: 'Usa este código para confirmar tu dirección de correo:',
    expires: 'El código es válido durante {minutes} minutos.',
    ignore: 'Si no pediste este código, ignora este correo.',
  },
  fr: {
    subject: 'Votre code de vérification : {code}',
    register: 'Utilisez ce code pour terminer la création de votre compte :',
    signIn: 'Utilisez ce code pour vous connecter :',
    verifyEmail: 'Utilisez ce code pour confirmer votre adresse e-mail :',
    expires: 'Le code est valable {minutes} minutes.',
    ignore: "Si vous n'avez pas demandé ce code, ignorez cet e-mail.",
  },
  it: {
    subject: 'Il tuo codice di verifica: {code}',
    register: 'Usa questo codice per completare la creazione del tuo account:',
    signIn: 'Usa questo codice per accedere:',
    verifyEmail: 'Usa questo codice per confermare il tuo indirizzo email:',
    expires: 'Il codice è valido per {minutes} minuti.',
    ignore: 'Se non hai richiesto questo codice, ignora questa email.',
  },
  ja: {
    subject: '確認コード: {code}',
    register: 'アカウントの作成を完了するには、このコードを使用してください:',
    signIn: 'サインインするには、このコードを使用してください:',
    verifyEmail: 'メールアドレスを確認するには、このコードを使用してください:',
    expires: 'コードの有効期間は {minutes} 分です。',
    ignore: 'このコードを依頼していない場合は、このメールを無視してください。',
  },
  ko: {
    subject: '인증 코드: {code}',
    register: '계정 만들기를 완료하려면 이 코드를 사용하세요:',
    signIn: '로그인하려면 이 코드를 사용하세요:',
    verifyEmail: '이메일 주소를 확인하려면 이 코드를 사용하세요:',
    expires: '코드는 {minutes}분 동안 유효합니다.',
    ignore: '이 코드를 요청하지 않았다면 이 이메일을 무시하세요.',
  },
  'pl-PL': {
    subject: 'Twój kod weryfikacyjny: {code}',
    register: 'Użyj tego kodu, aby dokończyć tworzenie konta:',
    signIn: 'Użyj tego kodu, aby się zalogować:',
    verifyEmail: 'Użyj tego kodu, aby potwierdzić swój adres e-mail:',
    expires: 'Kod jest ważny przez {minutes} minut.',
    ignore: 'Jeśli nie prosiłeś o ten kod, zignoruj tę wiadomość.',
  },
  'pt-BR': {
    subject: 'Seu código de verificação: {code}',
    register: 'Use este código para concluir a criação da sua conta:',
    signIn: 'Use este código para entrar:',
    verifyEmail: 'Use este código para confirmar seu endereço de e-mail:',
    expires: 'O código é válido por {minutes} minutos.',
    ignore: 'Se você não pediu este código, ignore este e-mail.',
  },
  'pt-PT': {
    subject: 'O seu código de verificação: {code}',
    register: 'Utilize este código para concluir a criação da sua conta:',
    signIn: 'Utilize este código para iniciar sessão:',
    verifyEmail: 'Utilize este código para confirmar o seu endereço de e-mail:',
    expires: 'O código é válido durante {minutes} minutos.',
    ignore: 'Se não pediu este código, ignore este e-mail.',
  },
  ru: {
    subject: 'Ваш код подтверждения: {code}',
    register: 'Введите этот код, чтобы завершить создание учётной записи:',
    signIn: 'Введите этот код, чтобы войти:',
    verifyEmail: 'Введите этот код, чтобы подтвердить адрес электронной почты:',
    expires: 'Код действителен {minutes} минут.',
    ignore: 'Если вы не запрашивали этот код, проигнорируйте это письмо.',
  },
  'tr-TR': {
    subject: 'Doğrulama kodunuz: {code}',
    register: 'Hesabınızı oluşturmayı tamamlamak için bu kodu kullanın:',
    signIn: 'Oturum açmak için bu kodu kullanın:',
    verifyEmail: 'E-posta adresinizi doğrulamak için bu kodu kullanın:',
    expires: 'Kod {minutes} dakika geçerlidir.',
    ignore: 'Bu kodu siz istemediyseniz bu e-postayı yok sayın.',
  },
  'zh-CN': {
    subject: '你的验证码：{code}',
    register: '使用此验证码完成账户创建：',
    signIn: '使用此验证码登录：',
    verifyEmail: '使用此验证码确认你的邮箱地址：',
    expires: '验证码在 {minutes} 分钟内有效。',
    ignore: '如果你没有申请此验证码，请忽略这封邮件。',
  },
  'zh-HK': {
    subject: '你的驗證碼：{code}',
    register: '使用此驗證碼完成建立帳戶：',
    signIn: '使用此驗證碼登入：',
    verifyEmail: '使用此驗證碼確認你的電郵地址：',
    expires: '驗證碼在 {minutes} 分鐘內有效。',
    ignore: '如果你沒有要求此驗證碼，請忽略這封電郵。',
  },
  'zh-TW': {
    subject: '你的驗證碼：{code}',
    register: '使用此驗證碼完成建立帳戶：',
    signIn: '使用此驗證碼登入：',
    verifyEmail: '使用此驗證碼確認你的電子郵件地址：',
    expires: '驗證碼在 {minutes} 分鐘內有效。',
    ignore: '如果你沒有要求此驗證碼，請忽略這封郵件。',
  },
};

/** Subject, plain text and HTML of a sign-up or sign-in verification code email in `language`. */
export function renderVerificationCode(
  language: Language,
  values: { code: string; minutes: number; purpose: 'Register' | 'SignIn' | 'VerifyEmail' },
): RenderedEmail {
  const texts = verificationCodeTexts[language];
  const fields = { code: values.code, minutes: String(values.minutes) };
  const intro =
    values.purpose === 'Register'
      ? texts.register
      : values.purpose === 'VerifyEmail'
        ? texts.verifyEmail
        : texts.signIn;
  const plain = (template: string) => fillText(template, fields);
  const filled = (template: string) => fillHtml(template, fields);
  const text = [plain(intro), '', values.code, '', plain(texts.expires), plain(texts.ignore)].join('\n');
  const htmlBody = html`${emailHead(language, filled(texts.subject))}
<p>${filled(intro)}</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px" dir="ltr">${values.code}</p>
<p style="color:#59636e">${filled(texts.expires)}<br>${filled(texts.ignore)}</p>
</body></html>`;
  return { subject: plain(texts.subject), text, html: htmlBody.toString() };
}
