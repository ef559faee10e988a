// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISandboxERC1271 {
    function isValidSignature(bytes32 hash, bytes memory signature) external view returns (bytes4);
}

/// The part of Uniswap's Permit2 (its SignatureTransfer) that x402's `upto` scheme uses, for the local sandbox
/// chain only, written from Permit2's published interface and EIP-712 types: signed, single-use transfers with a
/// witness (`permitWitnessTransferFrom`), unordered nonces in a bitmap, and the same EIP-712 domain (name "Permit2",
/// no version). It is placed at Permit2's canonical address with anvil_setCode, so nothing may depend on
/// constructor-written storage or immutables: the domain separator is computed from the chain id and address(this).
/// Never deployed to a public chain.
contract SandboxPermit2 {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("Permit2");
    bytes32 public constant TOKEN_PERMISSIONS_TYPEHASH = keccak256("TokenPermissions(address token,uint256 amount)");
    string public constant PERMIT_WITNESS_TRANSFER_FROM_TYPEHASH_STUB =
        "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
    // secp256k1n / 2: signatures with a higher s are malleable copies (EIP-2).
    uint256 private constant HALF_N = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// owner => word position => bitmap of used nonces (nonce >> 8 is the word, its low 8 bits the bit).
    mapping(address => mapping(uint256 => uint256)) public nonceBitmap;

    error SignatureExpired(uint256 signatureDeadline);
    error InvalidAmount(uint256 maxAmount);
    error InvalidNonce();
    error InvalidSigner();
    error InvalidSignature();
    error InvalidSignatureLength();
    error InvalidContractSignature();
    error TransferFailed();

    event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask);

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, block.chainid, address(this)));
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external {
        if (block.timestamp > permit.deadline) revert SignatureExpired(permit.deadline);
        if (transferDetails.requestedAmount > permit.permitted.amount) revert InvalidAmount(permit.permitted.amount);
        _useUnorderedNonce(owner, permit.nonce);
        bytes32 typeHash = keccak256(abi.encodePacked(PERMIT_WITNESS_TRANSFER_FROM_TYPEHASH_STUB, witnessTypeString));
        bytes32 permissionsHash = keccak256(abi.encode(TOKEN_PERMISSIONS_TYPEHASH, permit.permitted.token, permit.permitted.amount));
        bytes32 dataHash = keccak256(abi.encode(typeHash, permissionsHash, msg.sender, permit.nonce, permit.deadline, witness));
        _verify(signature, keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), dataHash)), owner);
        _transferFrom(permit.permitted.token, owner, transferDetails.to, transferDetails.requestedAmount);
    }

    /// Lets an owner cancel signed permits before anyone uses them.
    function invalidateUnorderedNonces(uint256 wordPos, uint256 mask) external {
        nonceBitmap[msg.sender][wordPos] |= mask;
        emit UnorderedNonceInvalidation(msg.sender, wordPos, mask);
    }

    function _useUnorderedNonce(address from, uint256 nonce) private {
        uint256 wordPos = nonce >> 8;
        uint256 bit = 1 << (nonce & 0xff);
        uint256 flipped = nonceBitmap[from][wordPos] ^= bit;
        if (flipped & bit == 0) revert InvalidNonce();
    }

    function _verify(bytes calldata signature, bytes32 digest, address claimedSigner) private view {
        if (claimedSigner.code.length > 0) {
            if (ISandboxERC1271(claimedSigner).isValidSignature(digest, signature) != 0x1626ba7e) revert InvalidContractSignature();
            return;
        }
        bytes32 r;
        bytes32 s;
        uint8 v;
        if (signature.length == 65) {
            (r, s) = abi.decode(signature, (bytes32, bytes32));
            v = uint8(signature[64]);
        } else if (signature.length == 64) {
            // EIP-2098 compact form: v is folded into the top bit of s.
            bytes32 vs;
            (r, vs) = abi.decode(signature, (bytes32, bytes32));
            s = bytes32(uint256(vs) & (type(uint256).max >> 1));
            v = uint8(uint256(vs >> 255)) + 27;
        } else {
            revert InvalidSignatureLength();
        }
        if (uint256(s) > HALF_N) revert InvalidSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0)) revert InvalidSignature();
        if (signer != claimedSigner) revert InvalidSigner();
    }

    function _transferFrom(address token, address from, address to, uint256 amount) private {
        (bool ok, bytes memory data) = token.call(abi.encodeWithSelector(0x23b872dd, from, to, amount));
        if (!ok || (data.length > 0 && !abi.decode(data, (bool)))) revert TransferFailed();
    }
}
