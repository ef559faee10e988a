// The most common passwords of eight characters or more (shorter ones already fail the length rule),
// from public breach corpora, plus a few this product invites. Compared case-insensitively.
const COMMON = `
password password1 password12 password123 password1234 password01 password2 password! passw0rd p@ssw0rd p@ssword
pass1234 passpass passwort motdepasse contraseña 12345678 123456789 1234567890 0123456789 9876543210 987654321
87654321 11111111 111111111 1111111111 00000000 22222222 33333333 44444444 55555555 66666666 77777777 88888888
99999999 12121212 12341234 12344321 11223344 123123123 123321123 147258369 741852963 123654789 159357852
qwertyui qwertyuiop qwerty123 qwerty1234 qwerty12345 qwertyu1 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y q1w2e3r4 q1w2e3r4t5
1qaz2wsx 1qaz2wsx3edc zaq12wsx zaq1xsw2 !qaz2wsx 1qazxsw2 qazwsxedc 12qwaszx 123qweasd 1234qwer qwer1234 asdfghjk
asdfghjkl asdfasdf asdf1234 zxcvbnm1 zxcvbnm123 abcd1234 1234abcd abc12345 abcdefgh a1b2c3d4 aaaaaaaa 123456abc
iloveyou iloveyou1 iloveyou2 iloveyou! princess princess1 sunshine sunshine1 football football1 baseball baseball1
basketball superman batman123 starwars starwars1 trustno1 whatever whatever1 welcome1 welcome123 welcome! letmein1
letmein123 letmein! hello123 hellohello secret123 changeme changeme1 administrator admin123 admin1234 adminadmin
rootroot master123 monkey123 dragon123 shadow123 michael1 jennifer michelle jessica1 jordan23 computer internet
corvette mercedes maverick chocolate butterfly liverpool chelsea1 arsenal1 babygirl blink182 minecraft pokemon1
samsung1 samsung123 google123 facebook1 linkedin1 testtest test1234 test12345 testing1 testing123 default1
freedom1 mustang1 charlie1 thomas12 killer12 soccer12 hockey12 summer2024 summer2025 winter2024 winter2025
spring2025 autumn2025 january1 december1 qweasdzxc 1234567a 12345678a a12345678 123456789a aa123456 aa12345678
agora123 agora1234 agorapassword monetizedmcp
`;

const list = new Set(
  COMMON.trim()
    .split(/\s+/)
    .map((p) => p.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return list.has(password.toLowerCase());
}
