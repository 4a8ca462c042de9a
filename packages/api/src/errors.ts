import type { Lang } from './lang.ts'

/**
 * Stable error reasons: the server sends one with every failure, the web app and the tests
 * branch on it. Each maps to the envelope `code` it travels with.
 */
export const REASON_CODES = {
  invalid_params: 400,
  invalid_message: 400,
  message_time_invalid: 400,
  invitation_code_required: 400,
  inviter_not_found: 400,
  not_logged_in: 401,
  session_expired: 401,
  signature_invalid: 401,
  signature_expired: 401,
  forbidden: 403,
  not_found: 404,
  not_registered: 404,
  already_registered: 409,
  insufficient_balance: 409,
  idempotency_conflict: 409,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>

export type Reason = keyof typeof REASON_CODES
export const REASONS = Object.keys(REASON_CODES) as Reason[]

/** The translated `msg` for each reason, in all six languages. */
export const REASON_MESSAGES: Record<Reason, Record<Lang, string>> = {
  invalid_params: {
    zhcn: '参数错误',
    en: 'Invalid parameters',
    ko: '잘못된 매개변수입니다',
    ja: 'パラメータが正しくありません',
    th: 'พารามิเตอร์ไม่ถูกต้อง',
    vi: 'Tham số không hợp lệ',
  },
  invalid_message: {
    zhcn: '签名消息格式错误',
    en: 'The signed message is not a HOPE login message',
    ko: '서명 메시지 형식이 올바르지 않습니다',
    ja: '署名メッセージの形式が正しくありません',
    th: 'รูปแบบข้อความที่ลงนามไม่ถูกต้อง',
    vi: 'Tin nhắn đã ký không đúng định dạng',
  },
  message_time_invalid: {
    zhcn: '设备时间不正确，请校准时间后重新签名',
    en: 'Your device clock is off, please correct it and sign again',
    ko: '기기 시간이 올바르지 않습니다. 시간을 맞춘 후 다시 서명하세요',
    ja: '端末の時刻が正しくありません。時刻を合わせて再度署名してください',
    th: 'เวลาในอุปกรณ์ไม่ถูกต้อง กรุณาตั้งเวลาแล้วลงนามใหม่',
    vi: 'Đồng hồ thiết bị không đúng, vui lòng chỉnh lại và ký lại',
  },
  invitation_code_required: {
    zhcn: '请输入邀请码',
    en: 'Please enter the invitation code',
    ko: '초대 코드를 입력하세요',
    ja: '招待コードを入力してください',
    th: 'กรุณากรอกรหัสเชิญ',
    vi: 'Vui lòng nhập mã mời',
  },
  inviter_not_found: {
    zhcn: '邀请人不存在',
    en: 'The inviter does not exist',
    ko: '초대자가 존재하지 않습니다',
    ja: '招待者が存在しません',
    th: 'ไม่พบผู้เชิญ',
    vi: 'Người mời không tồn tại',
  },
  not_logged_in: {
    zhcn: '请先登录',
    en: 'Please log in first',
    ko: '먼저 로그인하세요',
    ja: '先にログインしてください',
    th: 'กรุณาเข้าสู่ระบบก่อน',
    vi: 'Vui lòng đăng nhập trước',
  },
  session_expired: {
    zhcn: '登录已过期，请重新登录',
    en: 'Your session has expired, please log in again',
    ko: '세션이 만료되었습니다. 다시 로그인하세요',
    ja: 'セッションの有効期限が切れました。再度ログインしてください',
    th: 'เซสชันหมดอายุ กรุณาเข้าสู่ระบบอีกครั้ง',
    vi: 'Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại',
  },
  signature_invalid: {
    zhcn: '签名验证失败',
    en: 'Signature verification failed',
    ko: '서명 검증에 실패했습니다',
    ja: '署名の検証に失敗しました',
    th: 'การตรวจสอบลายเซ็นล้มเหลว',
    vi: 'Xác minh chữ ký thất bại',
  },
  signature_expired: {
    zhcn: '签名已过期，请重新签名',
    en: 'The signature has expired, please sign again',
    ko: '서명이 만료되었습니다. 다시 서명하세요',
    ja: '署名の有効期限が切れました。再度署名してください',
    th: 'ลายเซ็นหมดอายุ กรุณาลงนามอีกครั้ง',
    vi: 'Chữ ký đã hết hạn, vui lòng ký lại',
  },
  forbidden: {
    zhcn: '无权操作',
    en: 'You are not allowed to do this',
    ko: '권한이 없습니다',
    ja: 'この操作は許可されていません',
    th: 'คุณไม่มีสิทธิ์ทำรายการนี้',
    vi: 'Bạn không có quyền thực hiện thao tác này',
  },
  not_found: {
    zhcn: '请求的接口不存在',
    en: 'Not found',
    ko: '찾을 수 없습니다',
    ja: '見つかりません',
    th: 'ไม่พบข้อมูล',
    vi: 'Không tìm thấy',
  },
  not_registered: {
    zhcn: '该地址尚未注册',
    en: 'This address is not registered',
    ko: '등록되지 않은 주소입니다',
    ja: 'このアドレスは未登録です',
    th: 'ที่อยู่นี้ยังไม่ได้ลงทะเบียน',
    vi: 'Địa chỉ này chưa được đăng ký',
  },
  already_registered: {
    zhcn: '该地址已注册',
    en: 'This address is already registered',
    ko: '이미 등록된 주소입니다',
    ja: 'このアドレスは登録済みです',
    th: 'ที่อยู่นี้ลงทะเบียนแล้ว',
    vi: 'Địa chỉ này đã được đăng ký',
  },
  insufficient_balance: {
    zhcn: '余额不足',
    en: 'Insufficient balance',
    ko: '잔액이 부족합니다',
    ja: '残高が不足しています',
    th: 'ยอดคงเหลือไม่เพียงพอ',
    vi: 'Số dư không đủ',
  },
  idempotency_conflict: {
    zhcn: '重复的请求',
    en: 'This request was already made with different content',
    ko: '다른 내용으로 이미 처리된 요청입니다',
    ja: '別の内容で既に処理されたリクエストです',
    th: 'คำขอนี้ถูกส่งไปแล้วด้วยข้อมูลที่ต่างกัน',
    vi: 'Yêu cầu này đã được gửi với nội dung khác',
  },
  rate_limited: {
    zhcn: '操作过于频繁，请稍后再试',
    en: 'Too many requests, please try again later',
    ko: '요청이 너무 많습니다. 잠시 후 다시 시도하세요',
    ja: 'リクエストが多すぎます。しばらくしてから再試行してください',
    th: 'มีคำขอมากเกินไป กรุณาลองใหม่ภายหลัง',
    vi: 'Quá nhiều yêu cầu, vui lòng thử lại sau',
  },
  internal_error: {
    zhcn: '系统错误',
    en: 'System error',
    ko: '시스템 오류',
    ja: 'システムエラー',
    th: 'ระบบขัดข้อง',
    vi: 'Lỗi hệ thống',
  },
  service_unavailable: {
    zhcn: '服务暂不可用，请稍后再试',
    en: 'Service temporarily unavailable, please try again later',
    ko: '서비스를 일시적으로 사용할 수 없습니다',
    ja: 'サービスは一時的に利用できません',
    th: 'บริการไม่พร้อมใช้งานชั่วคราว',
    vi: 'Dịch vụ tạm thời không khả dụng',
  },
}

export function reasonMessage(reason: Reason, lang: Lang): string {
  return REASON_MESSAGES[reason][lang]
}
