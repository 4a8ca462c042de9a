import { z } from 'zod'
import { Address, Signature, intParam } from './common.ts'

/** Placement partition under the inviter: 1 left, 2 central, 3 right (spec "location", default 1). */
export const Location = intParam(1, 3).default(1)

const Username = z.string().trim().min(1).max(64)

export const LoginParams = z.object({
  username: Address,
  location: Location,
  pusername: Username.optional(),
  message: z.string().max(1000),
  signature: Signature,
})
export type LoginParams = z.input<typeof LoginParams>

export const RegisterParams = z.object({
  username: Address,
  location: Location,
  pusername: Username.optional(),
  invitationCode: z.string().trim().max(32).optional(),
  message: z.string().max(1000),
  signature: Signature,
})
export type RegisterParams = z.input<typeof RegisterParams>

/** `user/loginMessage`: the address that will sign. */
export const LoginMessageParams = z.object({ username: Address })
export type LoginMessageParams = z.input<typeof LoginMessageParams>

/** A Sign-In with Ethereum (EIP-4361) message to sign, then post to `user/logining`. */
export interface LoginMessage {
  message: string
}

export const UserNameParams = z.object({ userName: Username })
export type UserNameParams = z.input<typeof UserNameParams>

/** `user/checkInvitationCode`: a code as typed (case and surrounding spaces do not matter). */
export const InvitationCodeParams = z.object({ invitationCode: z.string().trim().min(1).max(32) })
export type InvitationCodeParams = z.input<typeof InvitationCodeParams>

export const EmptyParams = z.object({})

/** The spec's user info (§3). */
export interface UserInfo {
  id: number
  userName: string
  nickName: string
  image: string
  referralCode: string
  level: number
  gamePoints: string
  invitationLink: string
  location: number
  isRobot: boolean
  /**
   * The node types the user holds (1 shareholder, 2 guarding, 3 director), lowest first: in
   * `user/getUserInfo`, so that home shows them beside the level.
   */
  nodes?: number[]
}

export interface LoginResult extends UserInfo {
  token: string
}

/** What the registered check reveals of an address: no more than the invite page shows. */
export interface PublicUser {
  userName: string
  nickName: string
  image: string
}
