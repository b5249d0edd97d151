/* The CO-RE checks, as X-macros shared by the BPF local program (one
 * section per relocation, named "core/<function>") and the host oracle.
 *   FLD(name, ltype, ttype, field, key)  scalar: _off _sz _ex _sg _ls _rs
 *   AGG(name, ltype, ttype, field, key)  aggregate/pointer/array: _off _sz _ex
 *   BF(name, ltype, ttype, field, key)   bitfield: _off _sz _ex _sg _ls _rs
 *   IDX(name, ltype, ttype, i, field, key) &((ltype *)p)[i].field: _off
 *   LD(name, ltype, ttype, field, key)   direct load p->field (LDX): _ld
 *   TY(name, ltype, ttype, key)          type: _ex _sz _id _lid
 *   EN(name, ltype, lval, ttype, tval, key) enumerator: _ex _val
 * key names what a target may lack: it defines MISSING_<key> as PROBE. */
#define CHECKS                                                              \
	FLD(s_a, struct s___l, struct s, a, s_a)                            \
	FLD(s_b, struct s___l, struct s, b, s_b)                            \
	FLD(s_c, struct s___l, struct s, c, s_c)                            \
	FLD(s_u32f, struct s___l, struct s, u32f, s_u32f)                   \
	AGG(s_ptr, struct s___l, struct s, ptr, s_ptr)                      \
	FLD(s_in_x, struct s___l, struct s, in.x, s_in)                     \
	FLD(s_in_y, struct s___l, struct s, in.y, s_in)                     \
	AGG(s_in, struct s___l, struct s, in, s_in)                         \
	AGG(s_arr, struct s___l, struct s, arr, s_arr)                      \
	FLD(s_arr1, struct s___l, struct s, arr[1], s_arr)                  \
	FLD(s_arr3, struct s___l, struct s, arr[3], s_arr3)                 \
	FLD(s_mat13, struct s___l, struct s, mat[1][3], s_mat)              \
	AGG(s_mat2, struct s___l, struct s, mat[2], s_mat)                  \
	FLD(s_ua, struct s___l, struct s, ua, s_ua)                         \
	FLD(s_ub, struct s___l, struct s, ub, s_ua)                         \
	FLD(s_na, struct s___l, struct s, na, s_na)                         \
	FLD(s_nn, struct s___l, struct s, nn, s_na)                         \
	FLD(s_gone, struct s___l, struct s, gone, s_gone)                   \
	BF(s_bf1, struct s___l, struct s, bf1, s_bf)                        \
	BF(s_bf2, struct s___l, struct s, bf2, s_bf)                        \
	BF(s_bf3, struct s___l, struct s, bf3, s_bf)                        \
	BF(s_sbf, struct s___l, struct s, sbf, s_bf)                        \
	BF(s_cbf, struct s___l, struct s, cbf, s_bf)                        \
	BF(s_gone_bf, struct s___l, struct s, gone_bf, s_gone)              \
	BF(pk_st, struct pk___l, struct pk, st, pk)                         \
	BF(pk_b8, struct pk___l, struct pk, b8, pk)                         \
	BF(pk_b9, struct pk___l, struct pk, b9, pk)                         \
	FLD(pk_tail, struct pk___l, struct pk, tail, pk)                    \
	IDX(s_i10b, struct s___l, struct s, 10, b, s_b)                     \
	IDX(s_i3arr2, struct s___l, struct s, 3, arr[2], s_arr3)             \
	FLD(fl_data7, struct fl___l, struct fl, data[7], fl)                \
	FLD(ren_old, struct ren___old, struct ren, old_name, ren_old)       \
	FLD(ren_new, struct ren___new, struct ren, new_name, ren_new)       \
	FLD(ren_keep, struct ren___old, struct ren, keep, ren)              \
	FLD(td_ty, td___l, td, ty, td)                                      \
	FLD(gt_z, struct gonetype___l, struct gonetype, z, gonetype)        \
	LD(ld_a, struct s___l, struct s, a, s_a)                            \
	LD(ld_u32f, struct s___l, struct s, u32f, s_u32f)                   \
	LD(ld_i32f, struct s___l, struct s, i32f, s_i32f)                   \
	LD(ld_ptr, struct s___l, struct s, ptr, s_ptr)                      \
	LD(ld_gone, struct s___l, struct s, gone, s_gone)                   \
	TY(ty_s, struct s___l, struct s, s)                                 \
	TY(ty_inner, struct inner___l, struct inner, s)                     \
	TY(ty_td, td___l, td, td)                                           \
	TY(ty_gone, struct gonetype___l, struct gonetype, gonetype)         \
	EN(en_a, enum en___l, EA___l, enum en, EA, en)                      \
	EN(en_b, enum en___l, EB___l, enum en, EB, en)                      \
	EN(en_neg, enum en___l, ENEG___l, enum en, ENEG, en)                \
	EN(en_gone, enum en___l, EGONE___l, enum en, EGONE, en_gone)        \
	EN(an_a, __typeof__(an_l), AN_A___l, int, AN_A, an)                 \
	EN(an_b, __typeof__(an_l), AN_B___l, int, AN_B, an)                 \
	EN(an_neg, __typeof__(an_l), AN_NEG___l, int, AN_NEG, an)           \
	EN(an_gone, __typeof__(an_l), AN_GONE___l, int, AN_GONE, an_gone)
