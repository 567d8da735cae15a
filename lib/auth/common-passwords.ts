/**
 * Passwords that meet the length rule yet appear near the top of public breach lists (and their
 * obvious variants). Compared lower-cased. Short passwords are refused by length before this list.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  "123456789012", "1234567890123", "12345678901234", "123456789123", "1234567891011", "123123123123",
  "111111111111", "000000000000", "121212121212", "112233445566", "098765432109", "987654321098",
  "password1234", "password12345", "password123456", "password1234!", "password123!", "passwordpassword",
  "password@123", "p@ssw0rd1234", "p@ssword1234", "passw0rd1234", "mypassword123", "mypassword1234",
  "qwertyuiop12", "qwertyuiop123", "qwertyuiopasdf", "qwertyuiopasdfghjkl", "qwerty123456", "qwerty1234567",
  "1qaz2wsx3edc", "1q2w3e4r5t6y", "q1w2e3r4t5y6", "zaq12wsxcde3", "asdfghjkl123", "asdfghjkl1234",
  "zxcvbnm12345", "abcdefghijkl", "abcdefgh1234", "abc123456789", "abcd12345678", "aaaaaaaaaaaa",
  "iloveyou1234", "iloveyou12345", "iloveyouforever", "letmein12345", "letmeinplease", "welcome12345",
  "welcome123456", "welcometothejungle", "changeme1234", "changeme12345", "administrator", "administrator1",
  "admin1234567", "adminadmin123", "superman1234", "batman123456", "football1234", "baseball1234",
  "basketball12", "basketball123", "soccer123456", "princess1234", "sunshine1234", "starwars1234",
  "monkey123456", "dragon123456", "shadow123456", "master123456", "michael12345", "jennifer1234",
  "charlie12345", "trustno11234", "whatever1234", "computer1234", "internet1234", "samsung12345",
  "liverpool123", "chelsea12345", "arsenal12345", "pokemon12345", "minecraft123", "minecraft1234",
  "fortnite1234", "spiderman123", "pussycat1234", "chocolate123", "butterfly123", "elizabeth123",
  "november1234", "december1234", "september123", "january12345", "february1234", "summer123456",
  "winter123456", "spring123456", "autumn123456", "letmein123456", "thisismypassword", "correcthorsebatterystaple",
  "passwordpassword1", "1234567890qwerty", "qwerty1234567890", "1234qwerasdfzxcv", "qwertyqwerty",
  "abcabcabcabc", "aaaaaaaaaaaaaa", "qazwsxedcrfv", "qazwsxedc123", "1q2w3e4r5t6y7u", "zxcvbnmasdfghjkl",
  "loveyou12345", "iloveu123456", "princess12345", "sunshine12345", "password2024", "password2025",
  "password2026", "welcome2024!", "welcome2025!", "welcome2026!", "summer2024!!", "summer2025!!",
  "companyname123", "event123456789", "events123456", "webhook12345", "webhooks1234", "emsportal123",
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
