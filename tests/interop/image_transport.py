"""image_transport's codecs as its plugins write and read them, in
numpy and OpenCV (the reference encoder and decoder): compressed_image_
transport's JPEG/PNG and compressed_depth_image_transport's 12-byte
ConfigHeader + PNG or RVL. Shared by the scripts that write camera bags
(ros_camera_bag.py), read exports (ros2_read.py) and stand in for ROS 2
nodes (ros2_listen.py, ros2_wrapper_publish.py).
"""

import numpy as np


def rvl_compress(values):
    """RVL (Wilson 2017) as image_transport_plugins' rvl_codec.cpp writes
    it: zero/non-zero run lengths and zigzagged differences as 3-bit VLE
    nibbles, eight to a 32-bit little-endian word from its top."""
    words, word, nibbles = [], 0, 0

    def vle(value):
        nonlocal word, nibbles
        while True:
            nibble = value & 7
            value >>= 3
            if value:
                nibble |= 8
            word = ((word << 4) | nibble) & 0xFFFFFFFF
            nibbles += 1
            if nibbles == 8:
                words.append(word)
                word, nibbles = 0, 0
            if not value:
                return

    values = [int(v) for v in values]
    n, at, previous = len(values), 0, 0
    while at < n:
        zeros = 0
        while at < n and values[at] == 0:
            zeros, at = zeros + 1, at + 1
        vle(zeros)
        nonzeros = 0
        while at + nonzeros < n and values[at + nonzeros] != 0:
            nonzeros += 1
        vle(nonzeros)
        for v in values[at:at + nonzeros]:
            delta = v - previous
            vle(((delta << 1) ^ (delta >> 31)) & 0xFFFFFFFF)
            previous = v
        at += nonzeros
    if nibbles:
        words.append((word << (4 * (8 - nibbles))) & 0xFFFFFFFF)
    return np.array(words, dtype="<u4").tobytes()


def rvl_decompress(data, count):
    """The inverse of rvl_compress (rvl_codec.cpp's DecompressRVL)."""
    words = np.frombuffer(data, dtype="<u4")
    state = {"at": 0, "word": 0, "left": 0}

    def vle():
        value, shift = 0, 0
        while True:
            if not state["left"]:
                state["word"], state["left"] = int(words[state["at"]]), 8
                state["at"] += 1
            nibble = state["word"] >> 28
            state["word"] = (state["word"] << 4) & 0xFFFFFFFF
            state["left"] -= 1
            value |= (nibble & 7) << shift
            shift += 3
            if not nibble & 8:
                return value

    out, previous = [], 0
    while len(out) < count:
        out.extend([0] * vle())
        for _ in range(vle()):
            positive = vle()
            previous = (previous + ((positive >> 1) ^ -(positive & 1))) & 0xFFFF
            out.append(previous)
    return np.array(out, dtype=np.uint16)


# The compressedDepth plugin's defaults (depth_max, depth_quantization).
DEPTH_MAX, DEPTH_QUANTIZATION = 10.0, 100.0


def encode_depth(depth_mm, codec, encoding, png_level=9):
    """(format, data, quantised image) as compressed_depth_image_transport
    writes a 16UC1 (mm) or 32FC1 (the same depth in metres) image (PNG at
    `png_level`, the plugin's default 9)."""
    import cv2
    if encoding == "32FC1":
        metres = depth_mm.astype(np.float32) / np.float32(1000)
        metres[depth_mm == 0] = np.nan
        z0, dmax = np.float32(DEPTH_QUANTIZATION), np.float32(DEPTH_MAX)
        a = z0 * (z0 + np.float32(1))
        b = np.float32(1) - a / dmax
        with np.errstate(invalid="ignore", divide="ignore"):
            inverse = a / metres + b
            keep = metres < dmax
        image = np.where(keep, inverse, 0).astype(np.uint16)
        params = (a, b)
    else:
        image = depth_mm.copy()
        image[image > int(DEPTH_MAX * 1000)] = 0
        params = (0.0, 0.0)
    header = np.array([0], dtype="<i4").tobytes() + np.array(params, dtype="<f4").tobytes()
    if codec == "rvl":
        h, w = image.shape
        body = (np.array([w, h], dtype="<u4").tobytes() + rvl_compress(image.ravel()))
    else:
        ok, png = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, png_level])
        assert ok
        body = png.tobytes()
    return f"{encoding}; compressedDepth {codec}", header + body, params


def decode_depth(data, codec, encoding):
    """The plugin's decodeCompressedDepthImage, 32FC1's no depth 0."""
    import cv2
    body = data[12:]
    if codec == "rvl":
        cols, rows = np.frombuffer(body[:8], dtype="<u4")
        image = rvl_decompress(body[8:], int(cols) * int(rows)).reshape(int(rows), int(cols))
    else:
        image = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_UNCHANGED)
    assert image.dtype == np.uint16, image.dtype
    if encoding == "32FC1":
        a, b = np.frombuffer(data[4:12], dtype="<f4")
        with np.errstate(divide="ignore"):
            depth = a / (image.astype(np.float32) - b)
        return np.where(image == 0, np.float32(0), depth).astype("<f4")
    return image.astype("<u2")


def encode_image(picture, encoding, codec, quality=90):
    """(format, data) as compressed_image_transport writes a rgb8 or mono8
    image: made BGR (colour) or kept grey, then cv2.imencode (JPEG at
    `quality`)."""
    import cv2
    colour = picture.ndim == 3
    bgr = cv2.cvtColor(picture, cv2.COLOR_RGB2BGR) if colour else picture
    if codec in ("jpeg", "bare-jpeg"):
        ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
        target = "bgr8" if colour else "mono8"
        fmt = "jpeg" if codec == "bare-jpeg" else f"{encoding}; jpeg compressed {target}"
    else:
        ok, data = cv2.imencode(".png", bgr, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        fmt = f"{encoding}; png compressed " + ("bgr8" if colour else "")
    assert ok
    return fmt, data.tobytes()


def decode_image(fmt, data):
    """compressed_image_transport's subscriber: cv2.imdecode (unchanged),
    then its colour conversion to the encoding the format names; returns
    (encoding, pixels)."""
    import cv2
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if ";" not in fmt:
        return ("mono8" if image.ndim == 2 else "bgr8"), image
    encoding = fmt.split(";")[0]
    conversion = {
        ("rgb8", True): cv2.COLOR_BGR2RGB, ("rgba8", True): cv2.COLOR_BGR2RGBA,
        ("bgra8", True): cv2.COLOR_BGR2BGRA, ("bgr8", False): cv2.COLOR_RGB2BGR,
        ("bgra8", False): cv2.COLOR_RGB2BGRA, ("rgba8", False): cv2.COLOR_RGB2RGBA,
    }.get((encoding, "compressed bgr" in fmt))
    if conversion is not None:
        image = cv2.cvtColor(image, conversion)
    if "jpeg" in fmt and encoding in ("mono16", "16UC1"):
        image = image.astype(np.uint16) * 256
    return encoding, image


def decode_compressed(topic, fmt, data):
    """A CompressedImage as image_transport's subscriber of its topic
    decodes it (`compressedDepth` topics by the depth plugin); returns
    (encoding, pixels)."""
    if topic.endswith("/compressedDepth"):
        encoding = fmt.split(";")[0]
        codec = "rvl" if "compressedDepth rvl" in fmt else "png"
        return encoding, decode_depth(data, codec, encoding)
    return decode_image(fmt, data)
