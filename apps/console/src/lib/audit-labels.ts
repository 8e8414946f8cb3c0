/** 'suspendLicense' or 'license.suspend' -> 'Suspend license' (the staff audit's action ids, read by people). */
export function actionLabel(action: string): string {
  const words = action
    .replace(/[._-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
