//! What people do with a recording, in Python: depth aligned to another
//! stream and back, point clouds with texture coordinates and colours, and
//! rsutil's projections; results as numpy arrays. The arithmetic is the
//! library's (`rsbag::processing`), which equals librealsense's.

use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use rsbag::device::{Distortion, Intrinsics};

use crate::errors::to_py;
use crate::frame::Frame;

/// Depth aligned to another stream's image and that image aligned to
/// depth, as `rs.align` computes them: `recording.alignment("Depth",
/// "Color")`.
#[pyclass(module = "rsbag", frozen)]
pub struct Alignment {
    pub(crate) inner: rsbag::processing::Alignment,
}

#[pymethods]
impl Alignment {
    /// The depth frame aligned to the other stream: HxW uint16 (the other
    /// image's size) of raw depth, 0 where no depth lands
    /// (`rs.align(rs.stream.color)`).
    fn depth_to_other<'py>(
        &self,
        py: Python<'py>,
        depth: PyRef<'py, Frame>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (alignment, frame) = (&self.inner, depth.frame());
        let values = py
            .detach(|| alignment.depth_to_other_pixels(frame))
            .map_err(to_py)?;
        let (width, height) = alignment.other_size();
        let array = PyArray1::from_vec(py, values).reshape([height as usize, width as usize])?;
        Ok(array.into_any())
    }

    /// The other stream's frame aligned to the depth frame, the depth
    /// image's size, shaped as `Frame.as_array` shapes the format (HxWx3
    /// uint8 for RGB8), zeros where there is no depth
    /// (`rs.align(rs.stream.depth)`).
    fn other_to_depth<'py>(
        &self,
        py: Python<'py>,
        depth: PyRef<'py, Frame>,
        other: PyRef<'py, Frame>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (alignment, depth, other) = (&self.inner, depth.frame(), other.frame());
        let aligned = py
            .detach(|| alignment.other_to_depth(depth, other))
            .map_err(to_py)?;
        Bound::new(py, Frame::played(aligned))?.call_method0("as_array")
    }
}

/// Point clouds of a depth stream as `rs.pointcloud` makes them:
/// `recording.pointcloud("Depth", map_to="Color")`.
#[pyclass(module = "rsbag", frozen)]
pub struct PointCloud {
    pub(crate) inner: rsbag::processing::PointCloudMaker,
}

#[pymethods]
impl PointCloud {
    /// `(vertices, texture_coordinates)` of a depth frame: Nx3 float32
    /// metres (a vertex per pixel, 0 where there is no depth or it is
    /// occluded in the mapped image) and Nx2 float32 (None unless mapped),
    /// as `points.get_vertices()` and `get_texture_coordinates()`.
    #[allow(clippy::type_complexity)]
    fn calculate<'py>(
        &self,
        py: Python<'py>,
        depth: PyRef<'py, Frame>,
    ) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
        let (maker, frame) = (&self.inner, depth.frame());
        let cloud = py.detach(|| maker.calculate(frame)).map_err(to_py)?;
        let n = cloud.vertices.len();
        let vertices: Vec<f32> = cloud.vertices.into_iter().flatten().collect();
        let vertices = PyArray1::from_vec(py, vertices).reshape([n, 3])?.into_any();
        let texture = if cloud.texture_coordinates.is_empty() {
            None
        } else {
            let uv: Vec<f32> = cloud.texture_coordinates.into_iter().flatten().collect();
            Some(PyArray1::from_vec(py, uv).reshape([n, 2])?.into_any())
        };
        Ok((vertices, texture))
    }

    /// The colour of each texture coordinate (Nx2) in `frame` (Nx3 uint8,
    /// RGB), as `points.export_to_ply` colours vertices: the pixel at
    /// `uv * size + 0.5` truncated, clamped to the image.
    #[staticmethod]
    fn colors<'py>(
        py: Python<'py>,
        texture_coordinates: PyReadonlyArray2<'py, f32>,
        frame: PyRef<'py, Frame>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let uv = texture_coordinates.as_array();
        if uv.ncols() != 2 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "texture coordinates are Nx2, not Nx{}",
                uv.ncols()
            )));
        }
        let image = rsbag::processing::image(frame.frame()).map_err(to_py)?;
        let colors: Vec<u8> = uv
            .rows()
            .into_iter()
            .flat_map(|row| rsbag::processing::texture_color(&image, [row[0], row[1]]))
            .collect();
        Ok(PyArray1::from_vec(py, colors)
            .reshape([uv.nrows(), 3])?
            .into_any())
    }
}

/// The point (x, y, z metres) seen at `pixel` at `depth` metres through a
/// camera of `intrinsics` (a dict as `Recording.sensors` gives them), as
/// `rs2_deproject_pixel_to_point` computes it.
#[pyfunction]
pub fn deproject(
    intrinsics: &Bound<'_, PyDict>,
    pixel: (f32, f32),
    depth: f32,
) -> PyResult<(f32, f32, f32)> {
    let i = intrinsics_of(intrinsics)?;
    let [x, y, z] = rsbag::processing::deproject(&i, [pixel.0, pixel.1], depth);
    Ok((x, y, z))
}

/// The pixel at which `point` (metres) is seen through a camera of
/// `intrinsics`, as `rs2_project_point_to_pixel` computes it.
#[pyfunction]
pub fn project(intrinsics: &Bound<'_, PyDict>, point: (f32, f32, f32)) -> PyResult<(f32, f32)> {
    let i = intrinsics_of(intrinsics)?;
    let [u, v] = rsbag::processing::project(&i, [point.0, point.1, point.2]);
    Ok((u, v))
}

/// Intrinsics from a dict with width, height, ppx, ppy, fx, fy, model
/// (librealsense's name) and coeffs.
fn intrinsics_of(dict: &Bound<'_, PyDict>) -> PyResult<Intrinsics> {
    let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
        dict.get_item(key)?.ok_or_else(|| {
            pyo3::exceptions::PyKeyError::new_err(format!("intrinsics need {key:?}"))
        })
    };
    let model: String = get("model")?.extract()?;
    let coeffs: Vec<f32> = get("coeffs")?.extract()?;
    let coeffs: [f32; 5] = coeffs.try_into().map_err(|c: Vec<f32>| {
        pyo3::exceptions::PyValueError::new_err(format!("coeffs are 5 numbers, not {}", c.len()))
    })?;
    Ok(Intrinsics {
        width: get("width")?.extract()?,
        height: get("height")?.extract()?,
        ppx: get("ppx")?.extract()?,
        ppy: get("ppy")?.extract()?,
        fx: get("fx")?.extract()?,
        fy: get("fy")?.extract()?,
        model: model.parse::<Distortion>().map_err(to_py)?,
        coeffs,
    })
}
