#!/bin/bash
# Correctness sweep of the exact solver over the shared data (1 thread, no book): every
# Pons set but Test_L1_R3 in full, its first 30, and positions.txt with 9-38 discs (all
# seven column scores). Prints "<set> <n> wrong <k>" per set. OUT: scratch directory.
OUT="${OUT:-/tmp/c4tui-sweep}"
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
D=tests/data
for s in Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2; do
  cut -d' ' -f1 $D/pons/$s | nice .venv/bin/c4tui solve --no-book -t 1 --hash 64 > $OUT/$s.out
  paste -d' ' $D/pons/$s $OUT/$s.out | awk -v s=$s '{n++; if ($2!=$4) bad++} END {print s, n, "wrong", bad+0}'
done
head -30 $D/pons/Test_L1_R3 | cut -d' ' -f1 | nice .venv/bin/c4tui solve --no-book -t 1 --hash 64 > $OUT/L1_R3.out
head -30 $D/pons/Test_L1_R3 | paste -d' ' - $OUT/L1_R3.out | awk '{n++; if ($2!=$4) bad++} END {print "Test_L1_R3 first", n, "wrong", bad+0}'
awk 'length($1) >= 9 {print $1}' $D/positions.txt | nice .venv/bin/c4tui solve --no-book -t 1 --hash 64 --analyze > $OUT/pos.out
awk 'length($1) >= 9' $D/positions.txt | paste -d' ' - $OUT/pos.out | awk '{n++; ok=($1==$10); for (i=3;i<=9;i++) { v=$i; if (v=="x") v=-1000; if (v != $(i+8)) ok=0 } if (!ok) {bad++; print "BAD", $0} } END {print "positions.txt >=9 discs (analyze)", n, "wrong", bad+0}'
