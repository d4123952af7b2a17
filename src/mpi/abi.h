/*
 * The one ABI-specific part of the PMPI library.
 *
 * MPI handles are integers in MPICH's ABI (MPICH, Intel MPI), small
 * constants cast to pointers in the MPI-5 standard ABI (libmpi_abi.so),
 * and addresses of the library's global objects in Open MPI's. The code
 * treats every handle as opaque bits (mcm_key), so only one thing differs:
 * Open MPI's predefined handles are data symbols (ompi_mpi_comm_world,
 * ompi_mpi_double, ...). The library does not link libmpi (it takes the
 * program's), so under LD_PRELOAD it is also loaded into mpirun, shells
 * and other programs without MPI, where those symbols do not exist and a
 * strong reference would stop the program at load. Declaring them weak
 * makes them resolve to 0 there; nothing uses them in such a process.
 * tests/mpi.cmake checks that no strong reference remains.
 */
#ifndef MC_MPI_ABI_H
#define MC_MPI_ABI_H

#if defined(OPEN_MPI) && OPEN_MPI
#pragma weak ompi_mpi_comm_world
#pragma weak ompi_mpi_comm_self
#pragma weak ompi_mpi_comm_null
#pragma weak ompi_mpi_info_null
#pragma weak ompi_mpi_errors_return
#pragma weak ompi_mpi_errors_are_fatal
#pragma weak ompi_mpi_errhandler_null
#pragma weak ompi_mpi_datatype_null
#pragma weak ompi_mpi_op_null
#pragma weak ompi_request_null
#pragma weak ompi_mpi_group_null
#pragma weak ompi_mpi_char
#pragma weak ompi_mpi_signed_char
#pragma weak ompi_mpi_unsigned_char
#pragma weak ompi_mpi_byte
#pragma weak ompi_mpi_short
#pragma weak ompi_mpi_unsigned_short
#pragma weak ompi_mpi_int
#pragma weak ompi_mpi_unsigned
#pragma weak ompi_mpi_long
#pragma weak ompi_mpi_unsigned_long
#pragma weak ompi_mpi_long_long_int
#pragma weak ompi_mpi_unsigned_long_long
#pragma weak ompi_mpi_float
#pragma weak ompi_mpi_double
#pragma weak ompi_mpi_wchar
#pragma weak ompi_mpi_c_bool
#pragma weak ompi_mpi_int8_t
#pragma weak ompi_mpi_int16_t
#pragma weak ompi_mpi_int32_t
#pragma weak ompi_mpi_int64_t
#pragma weak ompi_mpi_uint8_t
#pragma weak ompi_mpi_uint16_t
#pragma weak ompi_mpi_uint32_t
#pragma weak ompi_mpi_uint64_t
#pragma weak ompi_mpi_aint
#pragma weak ompi_mpi_offset
#pragma weak ompi_mpi_count
#pragma weak ompi_mpi_packed
#pragma weak ompi_mpi_op_max
#pragma weak ompi_mpi_op_min
#pragma weak ompi_mpi_op_sum
#pragma weak ompi_mpi_op_prod
#pragma weak ompi_mpi_op_land
#pragma weak ompi_mpi_op_band
#pragma weak ompi_mpi_op_lor
#pragma weak ompi_mpi_op_bor
#pragma weak ompi_mpi_op_lxor
#pragma weak ompi_mpi_op_bxor
#pragma weak ompi_mpi_op_maxloc
#pragma weak ompi_mpi_op_minloc
#pragma weak ompi_mpi_op_replace
#pragma weak ompi_mpi_op_no_op
#pragma weak ompi_mpi_c_float_complex
#pragma weak ompi_mpi_c_double_complex
#pragma weak ompi_mpi_cxx_cplex
#pragma weak ompi_mpi_cxx_dblcplex
#pragma weak ompi_mpi_float_int
#pragma weak ompi_mpi_double_int
#pragma weak ompi_mpi_2int
#pragma weak ompi_mpi_long_int
#endif

#endif /* MC_MPI_ABI_H */
