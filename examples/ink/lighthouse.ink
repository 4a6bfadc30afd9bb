// 등대지기의 밤 — storygraph 예제 이야기 (ink)
// storygraph import examples/ink/lighthouse.ink -o scenario.csv
VAR trust = 0
VAR has_lamp = false
VAR weather = "calm"
CONST NEEDED_TRUST = 2

-> dock

=== dock ===
밤바다에 안개가 깔렸다. 부두 끝에 등대가 희미하게 보인다.
* [등대로 걸어간다] -> lighthouse_door
* [선술집에 들른다] -> tavern
+ {trust >= NEEDED_TRUST} [배를 빌려 섬으로 간다] -> boat

=== tavern ===
선술집은 뱃사람들로 시끌벅적하다.
* [늙은 선원에게 말을 건다]
  ~ trust = trust + 1
  "등대지기는 폭풍이 오면 문을 잠그지."
* [주인에게 등불을 산다]
  ~ has_lamp = true
- 밤이 깊어 간다.
* [부두로 돌아간다] -> dock
* [등대로 간다] -> lighthouse_door

=== lighthouse_door ===
{has_lamp: 등불로 녹슨 자물쇠를 비춘다.}
* {has_lamp} [자물쇠를 연다] -> stairs
* [문을 두드린다] -> keeper
* [돌아선다] -> dock

=== keeper ===
등대지기가 문틈으로 내다본다.
* [폭풍이 온다고 알린다]
  ~ weather = "storm"
  ~ trust = trust + 1
* [길을 잃었다고 말한다]
  ~ trust = trust + 1
- 등대지기가 고개를 끄덕이며 안으로 들어오라고 한다. -> stairs
* [등대지기에게 등불을 빌린다]
  ~ has_lamp = true
  -> stairs
* [고맙다고 인사하고 떠난다] -> dock

=== stairs ===
나선 계단이 끝없이 이어진다.
{weather == "storm": -> storm_top}
* [꼭대기까지 오른다] -> lamp_room
* [창고 문을 연다] -> storeroom

=== storeroom ===
먼지 쌓인 창고다.
-> search ->
상자를 닫고 일어선다.
* [계단으로 돌아간다] -> stairs

=== search ===
상자 속에서 등대지기의 낡은 일지를 찾았다.
~ trust = trust + 1
->->

=== lamp_room ===
거대한 렌즈가 어둠 속에 서 있다.
* {has_lamp} [등불로 렌즈에 불을 붙인다] -> lit
* {not has_lamp} [손으로 더듬어 스위치를 찾는다] -> dark_end
* {trust >= 3} [등대지기의 비밀을 묻는다] -> secrets

=== secret ===
등대지기는 오래전 난파선 이야기를 꺼낸다.
-> lit

=== storm_top ===
폭풍이 유리창을 두드린다.
* [렌즈를 지킨다] -> lit
* [아래층으로 피한다] -> stairs

=== lit ===
불빛이 바다를 가른다. 멀리서 배 한 척이 방향을 튼다.
-> END

=== dark_end ===
어둠 속에서 발을 헛디딘다.
-> END

=== boat ===
작은 배가 파도에 흔들린다.
* [섬으로 노를 젓는다] -> island
* [부두로 돌아간다] -> dock

=== island ===
섬에는 아무도 없다. 바람 소리만 들린다.

=== old_map ===
누군가 그려 둔 옛 지도다.
-> island
