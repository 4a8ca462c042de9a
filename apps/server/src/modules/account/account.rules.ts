/** A transfer may only go to a user strictly below the sender in the referral tree (spec §6). */
export function isInDownline(
  senderId: number,
  recipient: { id: number; ancestorIds: number[] },
): boolean {
  return recipient.id !== senderId && recipient.ancestorIds.includes(senderId)
}
