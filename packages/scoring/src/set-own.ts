/**
 * `target[key] = value`, except that a key named `__proto__` (which JSON.parse happily produces) becomes
 * an own property instead of replacing the object's prototype. Report maps are keyed by field names
 * that come from model output, so they go through here.
 */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
