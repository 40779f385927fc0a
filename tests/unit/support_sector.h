/* Test support: the test sectors the Filecoin tests seal, and the parameter files of built-in
 * circuits the engine and daemon tests give their engines. One place for what each test used
 * to spell out by hand (miner, ticket, seed, Fr32 data, setup, file names). */
#ifndef CUZK_TEST_SUPPORT_SECTOR_H
#define CUZK_TEST_SUPPORT_SECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/filecoin_seal.h"

/* Test sector `id` of proof type p, committed capacity (zeros): miner t01002, ticket byte
 * i = 7 i + id (the last byte's top two bits cleared: a ticket is read as an Fr value). */
void test_sector_params(cuzk_seal_params *sp, cuzk_seal_proof p, uint64_t id);
/* The devnet sector (miner t01002, sector 1, its real ticket) whose comm_d and comm_r a lotus
 * devnet recorded (test_fil_seal checks them), and its real interactive seed (seed NULL: not
 * wanted). */
void test_sector_devnet(cuzk_seal_params *sp, cuzk_seal_proof p, uint8_t seed[32]);
/* An interactive seed for commit1: byte i = 11 i + n, byte 0 also xor n >> 8 (so that 400
 * values of n give 400 seeds), top two bits of the last byte cleared. */
void test_sector_seed(uint8_t seed[32], unsigned n);
/* bytes (a multiple of 32) of random unsealed data from seed, Fr32-padded as a sector's data
 * must be (each 32-byte node's top two bits cleared). */
void test_sector_data(uint8_t *data, size_t bytes, uint64_t seed);

/* The sector sealed (precommit); NULL, with a failed check recorded, when sealing fails. */
cuzk_sealed_sector *test_sector_seal(const cuzk_seal_params *sp);
/* The sector sealed and committed for seed (its C1; the sealed sector freed); NULL, with a
 * failed check recorded, when either step fails. */
cuzk_c1 *test_sector_c1(const cuzk_seal_params *sp, const uint8_t seed[32]);

/* Parameter files of a built-in circuit, where test_params_write put them. */
typedef struct {
    char params[512], vk[512];
    size_t num_inputs; /* public inputs, ONE omitted */
} test_params;

/* Sets up `circuit` (a built-in circuit name, e.g. "random:1024"; the setup's randomness from
 * seed) and writes DIR/cuzk-test-NAME.params and .vk, NAME being circuit with ':' as '-': the
 * names a daemon's test kinds look for in its parameter folder. Exits the test program when it
 * cannot (every test after it would need the files). */
void test_params_write(test_params *out, const char *dir, const char *circuit, uint64_t seed);

#endif
