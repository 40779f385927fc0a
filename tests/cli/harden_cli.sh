#!/usr/bin/env bash
# TIER fast (alone on 2 cores: 11 s)
# Output and input files of the CLI: outputs replace only regular files (a link is followed, a
# device or FIFO written in place with its errors checked, `-` is standard output), a command
# writes all of its outputs or none, every output is checked before the work (a folder, a
# missing folder, an input file, two outputs on one file, a key of the wrong shape), and inputs
# are read only when they are regular files (a FIFO is refused instead of waited on, /dev/zero
# is not read to its end). Small circuits and a 2 KiB sector: seconds. Commands that could hang
# or run long on a regression run under `timeout`, so a regression fails instead of hanging.
. "$(dirname "$0")/lib.bash"

R=0000000000000000000000000000000000000000000000000000000000000001
# a command that must be refused before any work: within 20 s, exit 1 and PATTERN in its output
refused() {
  local desc=$1 pattern=$2; shift 2
  expect_fail "$desc" 1 "$pattern" timeout 20 "$@"
}

expect_ok "setup cubic" "$CUZK" setup --circuit cubic --params c.params --vk c.vk --quiet
seal_sector s 1
cp c.params c.params.orig

# --- 1: what an output path names decides how it is written
echo old > target.proof
ln -s target.proof link.proof
expect_ok "prove --proof LINK" "$CUZK" prove --circuit cubic --params c.params --proof link.proof --inputs l.json --quiet
CHECKS=$((CHECKS + 1))
[ -L link.proof ] || fail "prove --proof LINK replaced the symbolic link"
[ "$(stat -c %s target.proof)" = 192 ] || fail "prove --proof LINK did not write the link's target"
ln -s missing.proof dangling.proof
refused "a dangling link" "dangling.proof: a symbolic link to a missing file" \
  "$CUZK" prove --circuit cubic --params c.params --proof dangling.proof --inputs d.json --quiet
no_file "nothing for a dangling link" missing.proof

mkfifo out.fifo
timeout 10 cat out.fifo >from_fifo.bin &
reader=$!
expect_ok "prove --proof FIFO" timeout 10 "$CUZK" prove --circuit cubic --params c.params --proof out.fifo --inputs f.json --quiet
wait $reader
CHECKS=$((CHECKS + 1))
[ -p out.fifo ] || fail "prove --proof FIFO replaced the FIFO"
[ "$(stat -c %s from_fifo.bin)" = 192 ] || fail "the FIFO's reader got $(stat -c %s from_fifo.bin) bytes, not 192"

expect_ok "prove --proof -" "$CUZK" prove --circuit cubic --params c.params --proof - --inputs o.json --quiet
CHECKS=$((CHECKS + 1))
[ "$(stat -c %s out.txt)" = 192 ] || fail "prove --proof -: $(stat -c %s out.txt) bytes on standard output, not 192"
no_file "--proof - makes no file named -" ./-
refused "two outputs on standard output" "both standard output" \
  "$CUZK" prove --circuit cubic --params c.params --proof - --inputs - --quiet

# device nodes: made here (as root), never the machine's own, so that a regression replaces a
# node of this folder only; /dev/full itself only where this user cannot replace it
if [ "$(id -u)" = 0 ] && mknod null.dev c 1 3 2>/dev/null && mknod full.dev c 1 7 2>/dev/null; then
  expect_ok "prove --proof NULL-DEVICE" "$CUZK" prove --circuit cubic --params c.params --proof null.dev --inputs n.json --quiet
  CHECKS=$((CHECKS + 1))
  [ -c null.dev ] || fail "prove --proof NULL-DEVICE replaced the device node"
  refused "a full device" "full.dev: cannot write: No space left on device" \
    "$CUZK" prove --circuit cubic --params c.params --proof full.dev --inputs fu.json --quiet
  CHECKS=$((CHECKS + 1))
  [ -c full.dev ] || fail "prove --proof FULL-DEVICE replaced the device node"
  no_file "no inputs when the proof's device is full" fu.json
elif [ "$(id -u)" != 0 ] && [ ! -w /dev ] && [ -c /dev/full ]; then
  refused "/dev/full" "/dev/full: cannot write: No space left on device" \
    "$CUZK" prove --circuit cubic --params c.params --proof /dev/full --inputs fu.json --quiet
  no_file "no inputs when the proof's device is full" fu.json
else
  echo "device-node checks skipped (cannot make device nodes here)"
fi

# --- 2: all outputs or none. The PoRep commands below are given the cubic parameters: they must
# refuse the output before reading the parameters (a regression fails on them, or times out)
refused "setup with an unwritable --vk" "nodir/x.vk: the folder nodir does not exist" \
  "$CUZK" setup --circuit cubic --params x.params --vk nodir/x.vk --quiet
no_file "no params when the vk cannot be written" x.params
refused "setup --params X --vk X" "--params same and --vk same name the same file" \
  "$CUZK" setup --circuit cubic --params same --vk same --quiet
no_file "nothing for --params X --vk X" same
echo old > keep.proof
refused "prove with a bad --inputs" "nodir/x.json: the folder nodir does not exist" \
  "$CUZK" prove --circuit cubic --params c.params --proof keep.proof --inputs nodir/x.json --quiet
CHECKS=$((CHECKS + 1))
[ "$(cat keep.proof)" = old ] || fail "prove with a bad --inputs replaced the proof"
refused "prove porep with a bad --inputs" "nodir/x.json: the folder nodir does not exist" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --out keep.proof --inputs nodir/x.json --quiet
CHECKS=$((CHECKS + 1))
[ "$(cat keep.proof)" = old ] || fail "prove porep with a bad --inputs replaced the proof"
mkdir -p s2/sector.json
refused "seal when sector.json cannot be written" "s2/sector.json: is a folder" \
  "$CUZK" seal --sector-size 2KiB --out s2 --quiet
no_file "no c1.json when sector.json cannot be written" s2/c1.json
no_file "no unsealed when sector.json cannot be written" s2/unsealed
head -c 2048 /dev/zero | tr '\0' '\377' > notfr32
expect_fail "seal with non-Fr32 --data" 1 "notfr32|node|Fr32|canonical" "$CUZK" seal --sector-size 2KiB --out s3 --data notfr32 --quiet
no_file "no output folder after bad --data" s3
mkdir -p v/post.json
echo old > v/vanilla-0.bin
refused "post vanilla when post.json cannot be written" "v/post.json: is a folder" \
  "$CUZK" post vanilla --kind winning --sector s --randomness $R --out v
CHECKS=$((CHECKS + 1))
[ "$(cat v/vanilla-0.bin 2>/dev/null)" = old ] || fail "a failed post vanilla lost the vanilla-0.bin it replaced"
mkdir -p u/update.json
echo old > u/sealed-new
refused "snap encode when update.json cannot be written" "u/update.json: is a folder" \
  "$CUZK" snap encode --sector s --random-data 1 --out u
CHECKS=$((CHECKS + 1))
[ "$(cat u/sealed-new 2>/dev/null)" = old ] || fail "a failed snap encode lost the sealed-new it replaced"

# --- 3, 4: inputs are regular files, checked before they are read; a FIFO is never waited on
mkfifo in.fifo
# a writer that gives up after 10 s, bounded, so that a reader that blocks or reads to the end
# finishes on a regression
(timeout 10 sh -c 'head -c 100000 /dev/zero > in.fifo' 2>/dev/null &)
refused "seal --data FIFO" "in.fifo is not a regular file" "$CUZK" seal --sector-size 2KiB --out s4 --data in.fifo --quiet
no_file "no output folder for a FIFO --data" s4
if [ "$FAILS" = 0 ]; then
  # only once a FIFO is refused without reading it: /dev/zero is not read to its end either
  refused "seal --data /dev/zero" "/dev/zero is not a regular file" \
    "$CUZK" seal --sector-size 2KiB --out s5 --data /dev/zero --quiet
  no_file "no output folder for --data /dev/zero" s5
fi
refused "prove porep --c1 FIFO" "in.fifo is not a regular file" \
  "$CUZK" prove porep --c1 in.fifo --params c.params --out p.proof --quiet
refused "verify porep --c1 FIFO" "in.fifo is not a regular file" \
  "$CUZK" verify porep --c1 in.fifo --vk c.vk --proof keep.proof
expect_ok "prove cubic" "$CUZK" prove --circuit cubic --params c.params --proof c.proof --inputs c.json --quiet
refused "verify --inputs FIFO" "in.fifo is not a regular file" "$CUZK" verify --vk c.vk --proof c.proof --inputs in.fifo
refused "verify --vk FIFO" "in.fifo is not a regular file" "$CUZK" verify --vk in.fifo --proof c.proof --inputs c.json
refused "verify porep --public FIFO" "in.fifo is not a regular file" \
  "$CUZK" verify porep --public in.fifo --vk c.vk --proof c.proof
expect_fail "--config FIFO" 2 "config file: in.fifo is not a regular file" timeout 20 "$CUZK" --config in.fifo config --print

# every JSON input is read through the same checked, bounded read: a FIFO (no writer now, so a
# reader that waits hangs until the timeout), /dev/zero, a folder and a file one byte larger
# than the command takes are refused before a byte is read
# bad_json_input DESC MAX CMD...: runs CMD with each bad input in place of the argument @IN@;
# the oversized one (a sparse file) has MAX + 1 bytes
bad_json_input() {
  local desc=$1 max=$2; shift 2
  rm -f big.in && truncate -s $((max + 1)) big.in
  local in pat args a
  for in in in.fifo /dev/zero adir big.in; do
    case $in in
    in.fifo) pat="in.fifo is not a regular file \(a FIFO\)" ;;
    /dev/zero) pat="/dev/zero is not a regular file \(a character device\)" ;;
    adir) pat="adir is not a regular file \(a folder\)" ;;
    big.in) pat="big.in has $((max + 1)) bytes, more than the $max accepted" ;;
    esac
    args=()
    for a in "$@"; do [ "$a" = @IN@ ] && args+=("$in") || args+=("$a"); done
    refused "$desc $in" "$pat" "${args[@]}"
  done
  rm -f big.in
}
# the largest public inputs JSON of np proofs of ni inputs (cli_inputs_json_max)
inputs_max() { echo $((4096 + $1 * (64 + $2 * 128))); }
MiB=$((1 << 20))
mkdir -p adir
bad_json_input "verify --inputs" "$(inputs_max 1 1)" "$CUZK" verify --vk c.vk --proof c.proof --inputs @IN@
bad_json_input "verify porep --c1 --inputs" "$(inputs_max 1 39)" \
  "$CUZK" verify porep --c1 s/c1.json --inputs @IN@ --vk c.vk --proof c.proof
bad_json_input "verify porep --inputs" $((64 * MiB)) "$CUZK" verify porep --inputs @IN@ --vk c.vk --proof c.proof
bad_json_input "verify window-post --inputs" $((64 * MiB)) \
  "$CUZK" verify window-post --inputs @IN@ --vk c.vk --proof c.proof
bad_json_input "verify porep --public" $MiB "$CUZK" verify porep --public @IN@ --vk c.vk --proof c.proof
bad_json_input "verify porep --vanilla-only --public" $MiB \
  "$CUZK" verify porep --c1 s/c1.json --public @IN@ --vanilla-only
# a sector folder's sector.json (post vanilla, snap encode): the node is put in its place
mkdir -p bs && cp s/* bs/
for in in in.fifo /dev/zero adir big.in; do
  rm -rf bs/sector.json
  case $in in
  in.fifo) mkfifo bs/sector.json && pat="a FIFO" ;;
  /dev/zero) ln -s /dev/zero bs/sector.json && pat="a character device" ;;
  adir) mkdir bs/sector.json && pat="a folder" ;;
  big.in) truncate -s $((MiB + 1)) bs/sector.json && pat="has $((MiB + 1)) bytes, more than the $MiB accepted" ;;
  esac
  refused "post vanilla: sector.json $in" "bs/sector.json (is not a regular file \()?$pat" \
    "$CUZK" post vanilla --kind winning --sector bs --randomness $R --out pv
  refused "snap encode: sector.json $in" "bs/sector.json (is not a regular file \()?$pat" \
    "$CUZK" snap encode --sector bs --random-data 1 --out sv
done
rm -rf bs
# client --vanilla: refused before any daemon is called; the largest is the base64 of one
# 256 MiB message and 1 MiB for the array's layout
bad_json_input "client prove --vanilla" $(((256 * MiB) / 3 * 4 + MiB)) "$CUZK" client prove \
  --addr "unix://$WORK/none.sock" --kind winning-post --vanilla @IN@ --randomness $R

# --- 6: verify porep names why inputs that differ from the C1's fail
echo '[["1"]]' > other.json
refused "verify porep with other inputs" "other.json: the public inputs differ from the ones recomputed from s/c1.json" \
  "$CUZK" verify porep --c1 s/c1.json --inputs other.json --vk c.vk --proof c.proof

# --- 10: outputs and keys checked before the work
mkdir -p adir
refused "prove porep --out nodir/x" "nodir/x.proof: the folder nodir does not exist" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --out nodir/x.proof --quiet
refused "prove porep --out FOLDER" "adir: is a folder" "$CUZK" prove porep --c1 s/c1.json --params c.params --out adir --quiet
refused "prove porep --vk of another shape" "--vk c.vk: a key for 1 public inputs, but StackedDrg2KiBV1_1 has 39" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --vk c.vk --out p.proof --quiet
no_file "no proof for a key of another shape" p.proof
refused "prove porep --pce nodir/x" "--pce nodir/x.pce: the folder nodir does not exist" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --pce nodir/x.pce --out p.proof --quiet
refused "prove --pce FOLDER" "--pce adir: not a regular file" \
  "$CUZK" prove --circuit cubic --params c.params --pce adir --proof p.proof --inputs x.json --quiet
no_file "no proof for a bad --pce" p.proof
refused "prove --proof PARAMS" "--proof c.params: is the input file given as --params" \
  "$CUZK" prove --circuit cubic --params c.params --proof c.params --inputs x.json --quiet
ln c.params hard.params
refused "prove --proof (a hard link to the params)" "--proof hard.params: is the input file given as --params" \
  "$CUZK" prove --circuit cubic --params c.params --proof hard.params --inputs x.json --quiet
CHECKS=$((CHECKS + 1))
cmp -s c.params c.params.orig || fail "a proof written over the parameters"
refused "prove porep --out C1" "--out s/c1.json: is the input file given as --c1" \
  "$CUZK" prove porep --c1 s/c1.json --params c.params --out s/c1.json --quiet
refused "seal --data DIR/unsealed --out DIR" "--out s/unsealed: is the input file given as --data" \
  "$CUZK" seal --sector-size 2KiB --out s --data s/unsealed --quiet
mkdir -p t && cp s/* t/ && ln -s sealed t/sealed-new
refused "snap encode over its own replica (a link)" "--out t/sealed-new: is the input file given as --sector t/sealed" \
  "$CUZK" snap encode --sector t --random-data 1 --out t
CHECKS=$((CHECKS + 1))
cmp -s t/sealed s/sealed || fail "snap encode wrote over its own replica"
expect_ok "snap encode into its sector's folder" "$CUZK" snap encode --sector s --random-data 1 --out s
expect_ok "snap encode into its sector's folder again" "$CUZK" snap encode --sector s --random-data 1 --out s

# the whole command's name in option errors
expect_fail "prove porep option error" 2 "^cuzk prove porep: unknown option '--bogus'" "$CUZK" prove porep --bogus
expect_fail "verify porep option error" 2 "^cuzk verify porep: unknown option" "$CUZK" verify porep --bogus
expect_fail "prove snap option error" 2 "^cuzk prove snap: unknown option" "$CUZK" prove snap --bogus
expect_fail "snap encode option error" 2 "^cuzk snap encode: unknown option" "$CUZK" snap encode --bogus

# no temporaries left anywhere
CHECKS=$((CHECKS + 1))
left=$(find . -name '*.tmp.*' | head -5)
[ -z "$left" ] || fail "temporaries left behind: $left"
finish
